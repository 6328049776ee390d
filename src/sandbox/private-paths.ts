/**
 * The daemon's own files, hidden from every sandboxed command whatever the rules say: its state dir
 * (the HTTP bridge token, the trust store, OAuth tokens, the databases), its socket (a command that
 * reaches it could open a session of its own and call tools past this one's rules), the socket's
 * directory when it is toolpool's own, and the config file (server headers and env may hold secrets).
 */
import { basename, dirname } from "node:path";
import { isInside } from "../runtime/path-inside.ts";
import { stateDir } from "../runtime/state-dir.ts";

export interface PrivatePathsInput {
  socketPath: string;
  configPath?: string | null | undefined;
  env?: NodeJS.ProcessEnv;
}

export function daemonPrivatePaths({ socketPath, configPath, env = process.env }: PrivatePathsInput): string[] {
  const paths = [stateDir(env), socketPath];
  const socketDir = dirname(socketPath);
  if (basename(socketDir).startsWith("toolpool")) paths.push(socketDir);
  if (configPath) paths.push(configPath);
  // One beneath another is covered by it (and could not be mounted over inside a read-only tmpfs).
  const unique = [...new Set(paths)];
  return unique.filter((path) => !unique.some((other) => other !== path && isInside(path, other)));
}
