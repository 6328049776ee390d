/**
 * The HTTP bridge's stateless (2026-07-28) callers, each with its own daemon link and session. A
 * 2026-07-28 request carries no session, so something else must tell callers apart, or one
 * caller's slow call holds every other caller's (the session orders its calls) and every caller
 * sees what the others' searches discovered and may be asked their questions.
 *
 * A caller is the credential the request was authorized with plus the `clientInfo` (name and
 * version) its `_meta` declares on every request — the one per-client thing the revision gives.
 * The credential is the trust boundary (any holder of the bridge's token can run tools as the
 * user); `clientInfo` is declared, not proven, so it separates honest hosts, which is what the
 * isolation is for: two hosts that declare the same `clientInfo` with the same credential are one
 * caller. A request without `clientInfo` is the credential's anonymous caller. Questions are not
 * shared even then: each call of a stateless caller is its own asker (stateless-face.ts
 * `askerPerCall`), so a question is never put to another window of the same app. The key is a hash:
 * neither the credential nor the names are kept or logged in it.
 *
 * Each caller's session runs its calls as they come (`concurrentCalls`): requests of this revision
 * are independent, so two calls of one caller never wait for each other either.
 *
 * Bounded like the 2025 sessions (http-sessions.ts): at most `maxCallers` links, the least recently
 * used idle one evicted for a new caller, one unused for `idleMs` closed, and only when every caller
 * has a request, a listen stream or a call waiting for its answers open is a new one refused. An evicted caller loses nothing it
 * can see: its next request opens a new link (its discoveries start afresh, as after a restart).
 */
import { createHash } from "node:crypto";
import type { DaemonBridge } from "./daemon-bridge.ts";
import { SessionTable } from "./http-sessions.ts";
import { META_CLIENT_INFO } from "../protocol/mcp-revisions.ts";

export interface CallerLink {
  /** The caller's key (a hash): the same on every request of the same caller. */
  key: string;
  bridge: DaemonBridge;
  /** Call when the request's response (or stream) has ended. */
  done: () => void;
}

export type CallerAdmission = CallerLink | { refused: string };

export interface StatelessCallersOptions {
  /** A fresh daemon link for one caller (its session runs calls concurrently). */
  createBridge: () => DaemonBridge;
  maxCallers?: number;
  idleMs?: number;
  evictAfterIdleMs?: number;
  log: (message: string) => void;
}

export interface StatelessCallers {
  /** The caller's link, made (or an idle one evicted for it) when needed. */
  admit(credential: string, meta: unknown): Promise<CallerAdmission>;
  size(): number;
  evictions(): number;
  sweep(): void;
  close(): void;
}

interface CallerEntry {
  bridge: DaemonBridge;
  close(): void;
  busy(): boolean;
}

export const DEFAULT_MAX_CALLERS = 32;
/** The longest a new caller waits for an idle caller to become evictable. */
const MAX_ADMISSION_WAIT_MS = 1_000;
const MAX_NAME_CHARS = 200;

/** The caller a request is: its credential and its declared client, hashed. */
export function callerKey(credential: string, meta: unknown): string {
  const info = isObject(meta) ? meta[META_CLIENT_INFO] : undefined;
  const name = isObject(info) && typeof info.name === "string" ? info.name.slice(0, MAX_NAME_CHARS) : "";
  const version = isObject(info) && typeof info.version === "string" ? info.version.slice(0, MAX_NAME_CHARS) : "";
  // Length-prefixed, so no two different triples join into the same bytes.
  const parts = [credential, name, version].map((part) => `${part.length}:${part}`).join("|");
  return createHash("sha256").update(parts).digest("hex");
}

export function createStatelessCallers(options: StatelessCallersOptions): StatelessCallers {
  const maxCallers = options.maxCallers ?? DEFAULT_MAX_CALLERS;
  const idleMs = options.idleMs ?? 30 * 60 * 1000;
  const evictAfterIdleMs = Math.min(options.evictAfterIdleMs ?? 100, MAX_ADMISSION_WAIT_MS);
  const table = new SessionTable<CallerEntry>({
    maxSessions: maxCallers,
    evictAfterIdleMs,
    onEvict: (key, idle) => options.log(`toolpool mcp: evicted stateless caller ${key.slice(0, 12)} (idle ${Math.round(idle)} ms, least recently used) to admit a new one (limit ${maxCallers} callers)`),
  });

  const admitNew = (): Promise<boolean> => table.admitWithin(MAX_ADMISSION_WAIT_MS);

  return {
    async admit(credential, meta) {
      const key = callerKey(credential, meta);
      const known = table.begin(key);
      if (known) return { key, bridge: table.get(key)!.bridge, done: known };
      if (!(await admitNew())) {
        options.log(`toolpool mcp: refused a new stateless caller: all ${maxCallers} callers have a request, a listen stream or a question open`);
        return { refused: `Too many stateless MCP callers (limit ${maxCallers}, each with a request, a listen stream or a question open); retry shortly` };
      }
      // Another request of the same caller may have made its link while this one waited.
      const raced = table.begin(key);
      if (raced) {
        table.abandoned();
        return { key, bridge: table.get(key)!.bridge, done: raced };
      }
      const bridge = options.createBridge();
      // A caller whose call waits for its answers is busy though no request is open: evicting it
      // would cancel the call while the person is answering.
      const done = table.opened(key, { bridge, close: () => bridge.close(), busy: () => bridge.waitingRounds > 0 });
      return { key, bridge, done };
    },
    size: () => table.size,
    evictions: () => table.evictions(),
    sweep: () => void table.sweep(idleMs),
    close: () => table.clear(),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
