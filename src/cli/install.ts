/**
 * `toolpool install [--prefix DIR]` and `toolpool uninstall`: put this compiled binary on PATH as
 * `toolpool` (~/.local/bin, or DIR/bin), the way single-binary tools install. The copy is written
 * beside its destination and renamed over it, so a running `toolpool` (a daemon, a host's bridge)
 * keeps its old file and no one ever runs a half-written binary.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fchmodSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, realpathSync, renameSync, rmSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { basename, delimiter, join, resolve } from "node:path";
import { buildInfo } from "../build-info.ts";
import { serviceFilePath } from "../service/service-spec.ts";
import { hostEntriesRunning } from "../hosts/entries-running.ts";
import { defaultPlaces } from "../hosts/host-files.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";

export interface InstallOptions {
  prefix?: string;
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Tests pass these; the defaults are this process's. */
  env?: NodeJS.ProcessEnv;
  binary?: string;
}

export function installDirectory(prefix: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (prefix !== undefined) {
    if (prefix.trim() === "") throw new UsageError("--prefix takes a directory");
    return join(resolve(prefix), "bin");
  }
  return join(env.HOME || homedir(), ".local", "bin");
}

/** The compiled binary this process runs; from source there is none to copy. */
export function runningBinary(): string {
  if (!buildInfo().compiled) {
    throw new UsageError("install copies the compiled binary, and this is running from source: build one (bun run build.ts --tier pro), then run dist/toolpool-pro install");
  }
  return process.execPath;
}

export async function installCommand(options: InstallOptions): Promise<number> {
  const env = options.env ?? process.env;
  const source = options.binary ?? runningBinary();
  const directory = installDirectory(options.prefix, env);
  const target = join(directory, "toolpool");
  mkdirSync(directory, { recursive: true, mode: 0o755 });
  const existing = statOrUndefined(target);
  if (existing?.isDirectory()) throw new Error(`${target} is a directory; remove it or choose another --prefix`);
  // An unpredictable name, created exclusively (O_EXCL, O_NOFOLLOW): a symlink or file someone
  // planted in a shared --prefix is never followed or reused; the create fails instead.
  const temporary = join(directory, `.toolpool.install-${randomBytes(12).toString("hex")}`);
  let created = false;
  try {
    copyExclusive(source, temporary, () => (created = true));
    renameSync(temporary, target);
  } catch (error) {
    if (created) rmSync(temporary, { force: true });
    throw new Error(`cannot install into ${directory}: ${(error as Error).message}`);
  }
  const path = pathAdvice(directory, target, env);
  if (options.json) {
    options.out(JSON.stringify({ installed: target, from: source, replaced: existing !== undefined, ...path }));
    return ExitCode.Ok;
  }
  options.out(`installed ${target}${existing ? " (replaced the one there)" : ""} from ${source}`);
  if (path.onPath && !path.shadowedBy) options.out(`${directory} is on your PATH: run \`toolpool version\` to check`);
  if (path.shadowedBy) options.out(`note: ${path.shadowedBy} comes first on your PATH; \`toolpool\` runs that one`);
  if (!path.onPath) {
    options.out(`${directory} is not on your PATH. Add it with:`);
    options.out(`  ${path.addToPath}`);
    options.out(`then open a new terminal (or run ${target} directly)`);
  }
  return ExitCode.Ok;
}

export async function uninstallCommand(options: InstallOptions): Promise<number> {
  const directory = installDirectory(options.prefix, options.env ?? process.env);
  const target = join(directory, "toolpool");
  const existing = statOrUndefined(target);
  if (existing === undefined) {
    options.out(options.json ? JSON.stringify({ removed: null, path: target }) : `nothing to remove: ${target} does not exist`);
    return ExitCode.Ok;
  }
  // Only what install writes: a regular file (a symlink or directory there is someone else's).
  if (!existing.isFile()) throw new Error(`${target} is not a file install wrote (it is a ${existing.isSymbolicLink() ? "symlink" : "directory"}); leaving it`);
  rmSync(target);
  // A service whose unit runs this file would fail at its next start: say so.
  const env = options.env ?? process.env;
  const platform = process.platform === "darwin" ? "darwin" : "linux";
  const unit = serviceFilePath(platform, env);
  const service = readTextOrUndefined(unit)?.includes(target) ? unit : undefined;
  // So would every MCP host whose entry runs it (host add writes the installed binary's path).
  const hosts = hostEntriesRunning(target, defaultPlaces({ env }));
  if (options.json) options.out(JSON.stringify({ removed: target, ...(service && { serviceStillRunsIt: service }), ...(hosts.length > 0 && { hostEntriesStillRunIt: hosts }) }));
  else {
    options.out(`removed ${target}`);
    if (service) options.out(`note: the background service (${service}) runs that binary: run toolpool service uninstall (or install it again from another binary)`);
    if (hosts.length > 0) {
      options.out(`warning: ${hosts.length === 1 ? "an MCP host entry still runs" : `${hosts.length} MCP host entries still run`} that binary and will fail until you remove ${hosts.length === 1 ? "it" : "them"} (toolpool host remove NAME, from another toolpool) or install again:`);
      for (const entry of hosts) options.out(`  ${entry.host}: "${entry.server}" in ${entry.file}`);
    }
  }
  return ExitCode.Ok;
}

interface PathAdvice {
  onPath: boolean;
  /** The first `toolpool` on PATH when it is not the one installed. */
  shadowedBy?: string;
  /** The line to add to the shell's startup file when the directory is not on PATH. */
  addToPath?: string;
}

export function pathAdvice(directory: string, target: string, env: NodeJS.ProcessEnv): PathAdvice {
  const entries = (env.PATH ?? "").split(delimiter).filter(Boolean);
  const same = (entry: string) => canonical(entry) === canonical(directory);
  const index = entries.findIndex(same);
  if (index === -1) return { onPath: false, addToPath: addToPathLine(directory, env) };
  for (const entry of entries.slice(0, index)) {
    const candidate = join(entry, "toolpool");
    if (statOrUndefined(candidate)?.isFile() && canonical(candidate) !== canonical(target)) return { onPath: true, shadowedBy: candidate };
  }
  return { onPath: true };
}

function addToPathLine(directory: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  const shown = directory.startsWith(`${home}/`) ? `$HOME/${directory.slice(home.length + 1)}` : directory;
  const shell = basename(env.SHELL ?? "");
  if (shell === "fish") return `fish_add_path ${shown}`;
  const rc = shell === "zsh" ? "~/.zshrc" : shell === "bash" ? "~/.bashrc" : "~/.profile";
  return `echo 'export PATH="${shown}:$PATH"' >> ${rc}`;
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function readTextOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function statOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Bytes per read and write while copying the binary. */
const COPY_CHUNK_BYTES = 1024 * 1024;

/** Copies `source` into a file that this call creates (and only then calls `created`), mode 0755. */
function copyExclusive(source: string, destination: string, created: () => void): void {
  const input = openSync(source, constants.O_RDONLY);
  try {
    const output = openSync(destination, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o700);
    created();
    try {
      const buffer = Buffer.allocUnsafe(COPY_CHUNK_BYTES);
      for (let count = readSync(input, buffer, 0, COPY_CHUNK_BYTES, null); count > 0; count = readSync(input, buffer, 0, COPY_CHUNK_BYTES, null)) {
        for (let written = 0; written < count; ) written += writeSync(output, buffer, written, count - written);
      }
      fchmodSync(output, 0o755);
    } finally {
      closeSync(output);
    }
  } finally {
    closeSync(input);
  }
}
