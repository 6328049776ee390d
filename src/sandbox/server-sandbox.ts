/**
 * A stdio MCP server in bubblewrap, when the config asks (`sandbox` in its entry, or
 * `sandbox.servers` for all): unlike Bash, whose view is the whole system read-only, a server sees
 * only the system's program and library dirs, its own program, and the paths its sandbox lists
 * (`readable` read-only, `writable` read-write) — a server confined to a directory cannot read
 * outside it whatever path it is asked for. /tmp is an empty private tmpfs; the network is
 * unshared unless `network` is `all`; `--die-with-parent` and the PID namespace end its whole
 * process tree with the daemon, even on SIGKILL.
 *
 * A server that asks for a sandbox where there is none does not start (fail closed), whatever
 * `sandbox.mode` says: that mode is about Bash.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import type { ServerLaunch } from "../mcp/server-spec.ts";
import type { SandboxSupport } from "./sandbox-support.ts";

/** The system's own dirs every server may read (those that exist here). */
export const SYSTEM_READABLE = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"] as const;

export interface ServerBwrapPlan {
  bwrapPath: string;
  /** Read-only: the system dirs, the server's program, the sandbox's `readable`. */
  readable: readonly string[];
  writable: readonly string[];
  /** The daemon's own files, hidden even when a listed path contains them. */
  hidden: readonly { path: string; directory: boolean }[];
  network: "none" | "all";
  cwd?: string;
}

export function serverBwrapArgv(plan: ServerBwrapPlan, command: string, args: readonly string[]): string[] {
  const argv = [plan.bwrapPath, "--unshare-all"];
  if (plan.network === "all") argv.push("--share-net");
  argv.push("--die-with-parent", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  for (const path of plan.readable) argv.push("--ro-bind", path, path);
  for (const path of plan.writable) argv.push("--bind", path, path);
  for (const entry of plan.hidden) argv.push(...(entry.directory ? ["--tmpfs", entry.path, "--remount-ro", entry.path] : ["--ro-bind", "/dev/null", entry.path]));
  if (plan.cwd !== undefined) argv.push("--chdir", plan.cwd);
  argv.push("--", command, ...args);
  return argv;
}

/**
 * Where the server's program lives, to be readable inside: for a program in a node_modules tree,
 * that whole tree (its dependencies sit beside it); otherwise the program's directory.
 */
export function programLocation(command: string, cwd: string | undefined, path: string | undefined): { program: string; dir: string } | undefined {
  const found = command.includes("/") ? resolve(cwd ?? process.cwd(), command) : (Bun.which(command, { PATH: path ?? "" }) ?? undefined);
  if (found === undefined || !existsSync(found)) return undefined;
  const real = realpathSync(found);
  for (let dir = dirname(real); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === "node_modules") return { program: real, dir };
  }
  return { program: real, dir: dirname(real) };
}

export type ServerConfiner = (launch: ServerLaunch) => Promise<{ command: string; args: string[] }>;

export function createServerConfiner(support: Promise<SandboxSupport>, hidden: () => readonly string[]): ServerConfiner {
  return async (launch) => {
    const found = await support;
    if (found.backend === "none" || found.bwrapPath === undefined) {
      throw new Error(`its config asks for a sandbox and there is none here (${found.reason ?? "no sandbox backend"}), so it is not started`);
    }
    const location = programLocation(launch.command, launch.cwd, launch.env.PATH);
    if (!location) throw new Error(`its command ${JSON.stringify(launch.command)} was not found, so the sandbox cannot show it`);
    for (const path of [...launch.sandbox.readable, ...launch.sandbox.writable]) {
      if (!isAbsolute(path) || !existsSync(path)) throw new Error(`sandbox path ${path} does not exist; create it or remove it from the server's sandbox`);
    }
    const system = SYSTEM_READABLE.filter((path) => existsSync(path));
    const readable = [...new Set([...system, location.dir, ...launch.sandbox.readable])];
    const shown = [...readable, ...launch.sandbox.writable];
    const hiddenEntries = hidden()
      .filter((path) => existsSync(path) && shown.some((root) => path.startsWith(`${root}/`)))
      .map((path) => ({ path, directory: statSync(path).isDirectory() }));
    const cwd = launch.cwd !== undefined && shown.some((root) => launch.cwd === root || launch.cwd!.startsWith(`${root}/`)) ? launch.cwd : undefined;
    const argv = serverBwrapArgv(
      { bwrapPath: found.bwrapPath, readable, writable: launch.sandbox.writable, hidden: hiddenEntries, network: launch.sandbox.network, ...(cwd !== undefined && { cwd }) },
      location.program,
      launch.args,
    );
    return { command: argv[0]!, args: argv.slice(1) };
  };
}
