/**
 * What `host add --move` took out of a host's file, kept so that `host remove` can put it back:
 * adopting a host must not be one-way (backups alone leave the host with `"mcpServers": {}`).
 * Kept per host file in `<state dir>/moved-servers.json`, 0600 in the 0700 state dir — the
 * definitions can hold tokens (`env`, `headers`), exactly as the host's own file did.
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDirectory, stateDir } from "../runtime/state-dir.ts";

export interface MovedServers {
  /** Top-level servers, as the host had them (name → its own definition). */
  servers: Record<string, unknown>;
  /** Claude Code's per-project servers in ~/.claude.json: project path → name → definition. */
  projects: Record<string, Record<string, unknown>>;
}

/** A host file lists tens of servers; a record much larger than this is not ours. */
const MAX_RECORD_BYTES = 4 * 1024 * 1024;

type Store = Record<string, MovedServers>;

export function movedServersPath(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), "moved-servers.json");
}

function load(env: NodeJS.ProcessEnv): Store {
  const path = movedServersPath(env);
  if (!existsSync(path) || statSync(path).size > MAX_RECORD_BYTES) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Store) : {};
  } catch {
    return {};
  }
}

function save(env: NodeJS.ProcessEnv, store: Store): void {
  const path = movedServersPath(env);
  if (Object.keys(store).length === 0) {
    rmSync(path, { force: true });
    return;
  }
  ensurePrivateDirectory(stateDir(env));
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Adds what a `--move` took from `hostFile` to what earlier moves took (a later move wins per name). */
export function rememberMoved(env: NodeJS.ProcessEnv, hostFile: string, taken: MovedServers): void {
  if (Object.keys(taken.servers).length === 0 && Object.keys(taken.projects).length === 0) return;
  const store = load(env);
  const before = store[hostFile] ?? { servers: {}, projects: {} };
  const projects = { ...before.projects };
  for (const [project, servers] of Object.entries(taken.projects)) projects[project] = { ...projects[project], ...servers };
  store[hostFile] = { servers: { ...before.servers, ...taken.servers }, projects };
  save(env, store);
}

/** What moves took from `hostFile`, removed from the record (the caller puts it back). */
export function takeMoved(env: NodeJS.ProcessEnv, hostFile: string): MovedServers | undefined {
  const store = load(env);
  const moved = store[hostFile];
  if (!moved) return undefined;
  delete store[hostFile];
  save(env, store);
  return { servers: moved.servers ?? {}, projects: moved.projects ?? {} };
}
