/**
 * `cacheScope` on a 2026-07-28 server's `tools/list` result, as a client that serves many sessions
 * honours it. "public": the list is the same for every caller and may be cached and served to
 * anyone. "private": it may be reused only within the authorization context it was fetched under,
 * and a cache MUST NOT serve it across contexts (another token, another identity).
 *
 * The pool reaches each server with one authorization context: the credentials its config gives it
 * (the URL and headers of a remote server, the command, arguments and environment of a stdio one —
 * the whole environment it starts with, the daemon's included: most stdio servers read their token
 * from an inherited variable, so a daemon started with another one may be another account)
 * and the OAuth login the daemon holds for it. Every session of the daemon calls the server through
 * that one context, so a listing of either scope is shared by all of them while the daemon runs.
 * What outlives that context is the catalog cache on disk (catalog-cache.ts), served at the next
 * start before the server connects and, for a lazy server, instead of starting it: a private listing
 * is stored with a fingerprint of the context it was fetched under and is not served once the
 * fingerprint differs (a new token in the headers or environment, another URL or command), nor
 * after a new OAuth login (which may be another account): the server is then listed afresh. A
 * public listing, and a listing of a 2025 server (which gives no hint), is served as before.
 */
import type { ServerSpec } from "./server-spec.ts";

export type CacheScope = "public" | "private";

/**
 * The fingerprint of the credentials a server is reached with: a SHA-256 of what in its spec, and
 * for a stdio server in the environment it inherits, can change who the server takes us for. Never
 * stored in the clear (headers and environments hold secrets). Failing closed: any change of the
 * inherited environment lists a private server afresh, which costs a start, never another's tools.
 */
export function authorizationContext(spec: ServerSpec, inherited: Readonly<Record<string, string | undefined>>): string {
  const identity =
    spec.transport === "stdio"
      ? { transport: spec.transport, command: spec.command, args: spec.args, env: sorted(definedOf({ ...inherited, ...spec.env })), cwd: spec.cwd ?? null }
      : { transport: spec.transport, url: spec.url, headers: sorted(spec.headers), oauthClient: spec.oauth?.clientId ?? null };
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(JSON.stringify(identity));
  return hasher.digest("hex");
}

function definedOf(record: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function sorted(record: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
