/**
 * The HTTP bridge's secret. Loopback keeps other machines out, not other users of this one: any
 * local account can connect to 127.0.0.1 and run tools as the bridge's user. So every request
 * must carry the token — in the URL path (`/mcp/<token>`, for hosts that take only a URL), as a
 * `?token=<token>` query on `/mcp` (for clients that rewrite a URL's path to `/mcp` and send no
 * headers, such as MCP Inspector 0.15), or as `Authorization: Bearer <token>`. It is made once, kept
 * 0600 in the state dir, and stays the same across runs, so a host's config keeps working. It is
 * compared in constant time and never logged (nor is a request's URL, which may carry it).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDirectory, stateDir } from "../runtime/state-dir.ts";

export const BRIDGE_TOKEN_FILE = "mcp-http-token";
const TOKEN = /^[A-Za-z0-9_-]{32,128}$/;

/** The token in `<state dir>/mcp-http-token`, made when missing (or not a token). */
export function bridgeToken(env: NodeJS.ProcessEnv = process.env): string {
  const directory = stateDir(env);
  const path = join(directory, BRIDGE_TOKEN_FILE);
  if (existsSync(path)) {
    const kept = readFileSync(path, "utf8").trim();
    if (TOKEN.test(kept)) {
      // Kept private even when something widened it since.
      chmodSync(path, 0o600);
      return kept;
    }
  }
  ensurePrivateDirectory(directory);
  const token = randomBytes(32).toString("base64url");
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${token}\n`, { mode: 0o600, flag: "wx" });
  renameSync(temporary, path);
  return token;
}

/** Constant-time comparison: how much of a guess matched must not show in the answer's timing. */
export function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether a request to `url` (with its Authorization header) carries the token, in one of the
 * three forms. Every form present must match (a wrong bearer beside a right query is refused), a
 * repeated `token` parameter is refused, and nothing but `base` and `base/<token>` is served.
 */
export function requestCarriesToken(url: URL, authorization: string | null, token: string, base: string): boolean {
  const presented: string[] = [];
  if (url.pathname.startsWith(`${base}/`)) presented.push(url.pathname.slice(base.length + 1));
  else if (url.pathname !== base) return false;
  const queried = url.searchParams.getAll("token");
  if (queried.length > 1) return false;
  if (queried.length === 1) presented.push(queried[0]!);
  if (authorization !== null) {
    if (!/^Bearer /i.test(authorization)) return false;
    presented.push(authorization.slice(7).trim());
  }
  return presented.length > 0 && presented.every((given) => tokenMatches(given, token));
}
