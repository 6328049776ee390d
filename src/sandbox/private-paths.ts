/**
 * The daemon's own files, hidden from every sandboxed command whatever the rules say: its state dir
 * (the HTTP bridge token, the trust store, OAuth tokens, the databases), its socket (a command that
 * reaches it could open a session of its own and call tools past this one's rules), the socket's
 * directory when it is toolpool's own, the config file (server headers and env may hold secrets), and
 * the discovery record's directory (~/.local/state/toolpool, from HOME whatever XDG_STATE_HOME says):
 * a command that rewrote the record could point the next daemon a trimmed-env bridge starts at a
 * config of its own making (no sandbox, servers that run anything).
 */
import { basename, dirname } from "node:path";
import { isInside } from "../runtime/path-inside.ts";
import { stateDir } from "../runtime/state-dir.ts";

export interface PrivatePathsInput {
  socketPath: string;
  configPath?: string | null | undefined;
  /** The discovery record (client/daemon-record.ts); its directory is hidden. */
  recordPath?: string | undefined;
  env?: NodeJS.ProcessEnv;
}

export function daemonPrivatePaths({ socketPath, configPath, recordPath, env = process.env }: PrivatePathsInput): string[] {
  const paths = [stateDir(env), socketPath];
  if (recordPath) paths.push(dirname(recordPath));
  const socketDir = dirname(socketPath);
  if (basename(socketDir).startsWith("toolpool")) paths.push(socketDir);
  if (configPath) paths.push(configPath);
  // One beneath another is covered by it (and could not be mounted over inside a read-only tmpfs).
  const unique = [...new Set(paths)];
  return unique.filter((path) => !unique.some((other) => other !== path && isInside(path, other)));
}
