/**
 * Where WebFetch may connect. Every hop (the first URL and each redirect) is checked: the host is
 * resolved and every address it resolves to must be public — one private answer among public ones
 * is enough to refuse, since the connection may use any of them. The operator can open the gate for
 * named hosts (`webFetch.allowHosts`) or altogether (`webFetch.allowPrivateAddresses`).
 *
 * The connection then goes to an address that was checked, not to the name again: `pinnedRequest`
 * puts the address in the URL and keeps the name for the Host header and for TLS (SNI and the
 * certificate check), so a resolver that answers differently the second time (DNS rebinding) cannot
 * send the request to a private address.
 */
import { lookup } from "node:dns/promises";
import { blockedAddressReason, isIpLiteral } from "./network-address.ts";

export interface WebFetchPolicy {
  /** Let every address through, private and loopback included. */
  allowPrivateAddresses: boolean;
  /** Hosts fetched without the address check: `host`, `host:port`, or `*.domain` for its subdomains. */
  allowHosts: readonly string[];
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemLookup: HostLookup = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Whether `url` may be fetched: refused (with the reason), or allowed with the checked addresses to
 * connect to. `addresses` is empty when the URL is used as it is: an IP literal (checked here), or
 * a host the operator allowed.
 */
export type Destination = { refused: string } | { refused?: undefined; addresses: readonly ResolvedAddress[] };

export async function checkDestination(url: URL, policy: WebFetchPolicy, resolve: HostLookup): Promise<Destination> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { refused: `${url.protocol.slice(0, -1)} URLs are not fetched; give an http or https URL.` };
  }
  if (url.username !== "" || url.password !== "") return { refused: "URLs with a user name or password in them are not fetched." };
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (policy.allowPrivateAddresses || isAllowedHost(url, host, policy.allowHosts)) return { addresses: [] };
  if (isIpLiteral(host)) {
    const reason = blockedAddressReason(host);
    return reason === undefined ? { addresses: [] } : { refused: refusal(url, `${host} is ${reason}`) };
  }
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    return { refused: `Could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.` };
  }
  if (addresses.length === 0) return { refused: `Could not resolve ${host}: it has no addresses.` };
  for (const { address } of addresses) {
    const reason = blockedAddressReason(address);
    if (reason !== undefined) return { refused: refusal(url, `${host} resolves to ${address}, ${reason}`) };
  }
  // IPv4 first: a machine without IPv6 routes fails fast on it, one with them reaches both.
  return { addresses: [...addresses].sort((a, b) => a.family - b.family) };
}

/** The URL and request options that reach `url`'s host at `address`, with the host's own name kept for HTTP and TLS. */
export function pinnedRequest(url: URL, address: ResolvedAddress): { url: URL; host: string; tls?: { serverName: string } } {
  const pinned = new URL(url.href);
  pinned.hostname = address.family === 6 ? `[${address.address}]` : address.address;
  return { url: pinned, host: url.host, ...(url.protocol === "https:" && { tls: { serverName: url.hostname } }) };
}

function isAllowedHost(url: URL, host: string, allowHosts: readonly string[]): boolean {
  const hostWithPort = url.port === "" ? host : `${host}:${url.port}`;
  return allowHosts.some((entry) => {
    const wanted = entry.trim().toLowerCase().replace(/^\[(.*)\](:\d+)?$/, "$1$2");
    if (wanted.startsWith("*.")) return host.endsWith(wanted.slice(1));
    return wanted === host || wanted === hostWithPort;
  });
}

function refusal(url: URL, why: string): string {
  return (
    `Refused to fetch ${url.href}: ${why}. WebFetch only reaches public internet addresses ` +
    "unless the daemon's config allows this host (webFetch.allowHosts) or private addresses (webFetch.allowPrivateAddresses)."
  );
}
