/**
 * Where WebFetch may connect. Every hop (the first URL and each redirect) is checked: the host is
 * resolved and every address it resolves to must be public — one private answer among public ones
 * is enough to refuse, since the connection may use any of them. The operator can open the gate for
 * named hosts (`webFetch.allowHosts`) or altogether (`webFetch.allowPrivateAddresses`).
 *
 * Not defended: a resolver that answers differently between this check and the connection (DNS
 * rebinding). Closing that needs connecting to the checked address itself, which fetch cannot do.
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

/** Why `url` must not be fetched, or undefined when it may be. */
export async function destinationRefusal(url: URL, policy: WebFetchPolicy, resolve: HostLookup): Promise<string | undefined> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `${url.protocol.slice(0, -1)} URLs are not fetched; give an http or https URL.`;
  }
  if (url.username !== "" || url.password !== "") return "URLs with a user name or password in them are not fetched.";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (policy.allowPrivateAddresses || isAllowedHost(url, host, policy.allowHosts)) return undefined;
  if (isIpLiteral(host)) {
    const reason = blockedAddressReason(host);
    return reason === undefined ? undefined : refusal(url, `${host} is ${reason}`);
  }
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    return `Could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`;
  }
  if (addresses.length === 0) return `Could not resolve ${host}: it has no addresses.`;
  for (const { address } of addresses) {
    const reason = blockedAddressReason(address);
    if (reason !== undefined) return refusal(url, `${host} resolves to ${address}, ${reason}`);
  }
  return undefined;
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
