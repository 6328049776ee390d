/**
 * `toolpool mcp --http HOST:PORT`: where the HTTP bridge listens. Loopback only — the bridge runs
 * tools as the user with no authentication, so it must never be reachable from another machine.
 * Port 0 asks the kernel for a free port (the bridge prints the one it got).
 */

export interface ListenAddress {
  /** As Bun.serve takes it: `127.0.0.1`, `::1` or `localhost`. */
  hostname: string;
  port: number;
}

export class ListenAddressError extends Error {}

const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "::1"]);

/** Parses `127.0.0.1:8080`, `localhost:0`, `[::1]:8080` or a bare port (`8080` → 127.0.0.1). */
export function parseListenAddress(text: string): ListenAddress {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { hostname: "127.0.0.1", port: parsePort(trimmed, text) };
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(trimmed);
  const plain = /^([^:[\]]+):(\d+)$/.exec(trimmed);
  const match = bracketed ?? plain;
  if (!match) throw new ListenAddressError(`--http takes HOST:PORT on loopback (e.g. 127.0.0.1:8765 or 127.0.0.1:0), not ${JSON.stringify(text)}`);
  const hostname = match[1]!.toLowerCase();
  if (!LOOPBACK_HOSTNAMES.has(hostname)) {
    throw new ListenAddressError(
      `--http listens on loopback only (127.0.0.1, localhost or [::1]), not ${hostname}: the bridge runs tools as you without authentication`,
    );
  }
  return { hostname, port: parsePort(match[2]!, text) };
}

/** The URL a client uses for an address (IPv6 in brackets). */
export function endpointUrl(hostname: string, port: number, path: string): string {
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return `http://${host}:${port}${path}`;
}

function parsePort(digits: string, original: string): number {
  const port = Number(digits);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ListenAddressError(`--http: port out of range in ${JSON.stringify(original)}`);
  return port;
}
