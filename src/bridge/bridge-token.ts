/**
 * The HTTP bridge's secret. Loopback keeps other machines out, not other users of this one: any
 * local account can connect to 127.0.0.1 and run tools as the bridge's user. So every request
 * must carry the token — in the URL path (`/mcp/<token>`, for hosts that take only a URL) or as
 * `Authorization: Bearer <token>`. It is made once, kept 0600 in the state dir, and stays the same
 * across runs, so a host's config keeps working.
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
