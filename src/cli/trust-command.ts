/**
 * `toolpool trust PATH` approves a project's `.toolpool.json` (or `.mcp.json`) — PATH is the file or
 * its directory — pinned to its current content; `toolpool trust --list` shows the approvals and
 * `toolpool trust --revoke PATH` takes one back. It prints what the file will run before it is
 * approved, writes the trust store itself (the daemon only reads it), and asks a running daemon
 * to read its project files again.
 */
import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { NotRunningError, ToolpoolClient } from "../client/client.ts";
import { ProjectFileError, readProjectFile, type ProjectFile } from "../config/project-file.ts";
import { defaultTrustPath, TrustStore } from "../config/trust-store.ts";
import { digestFiles, executedFiles, MISSING_FILE, PinError } from "../config/executed-files.ts";
import { field } from "./format.ts";
import { locateDaemon } from "../client/socket-discovery.ts";
import { Method } from "../protocol/method-names.ts";
import type { ClientCommandOptions } from "./commands.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";

export interface TrustCommandOptions extends ClientCommandOptions {
  list?: boolean;
  revoke?: boolean;
  env?: NodeJS.ProcessEnv;
}

export async function trustCommand(options: TrustCommandOptions, args: readonly string[]): Promise<number> {
  const store = new TrustStore(defaultTrustPath(options.env ?? process.env));
  if (options.list) {
    if (args.length > 0) throw new UsageError("usage: toolpool trust --list");
    const entries = store.entries();
    if (options.json) options.out(JSON.stringify({ trusted: entries }));
    else options.out(Object.entries(entries).map(([file, entry]) => `${field(file)}  sha256 ${field(String(entry.sha256).slice(0, 12))}…  since ${field(String(entry.trustedAt))}${entry.files ? `, ${Object.keys(entry.files).length} pinned files` : ""}`).join("\n") || "no project files are trusted");
    return ExitCode.Ok;
  }
  const [path, ...extra] = args;
  if (!path || extra.length > 0) throw new UsageError("usage: toolpool trust PATH | toolpool trust --revoke PATH | toolpool trust --list");
  const project = findProject(resolve(path));
  if (options.revoke) {
    const revoked = store.revoke(project.file);
    options.out(options.json ? JSON.stringify({ file: project.file, revoked }) : revoked ? `no longer trusted: ${project.file}` : `${project.file} was not trusted`);
  } else {
    let pins: Record<string, string>;
    try {
      pins = digestFiles(executedFiles(project.root, project.servers));
    } catch (error) {
      if (error instanceof PinError) throw new UsageError(`${project.file} cannot be approved: ${error.message}`);
      throw error;
    }
    store.trust(project.file, project.sha256, pins);
    if (options.json) options.out(JSON.stringify({ file: project.file, sha256: project.sha256, servers: Object.keys(project.servers), details: project.servers, pinned: pins }));
    else options.out(describeApproval(project, pins));
  }
  await tellDaemon(options);
  return ExitCode.Ok;
}

function findProject(path: string): ProjectFile {
  let root = path;
  try {
    if (statSync(path).isFile()) root = resolve(path, "..");
  } catch {
    throw new UsageError(`${path} does not exist`);
  }
  let project: ProjectFile | undefined;
  try {
    project = readProjectFile(realpathSync(root));
  } catch (error) {
    if (error instanceof ProjectFileError) throw new UsageError(error.message);
    throw error;
  }
  if (!project) throw new UsageError(`${root} has no .toolpool.json or .mcp.json`);
  if (path !== root && realpathSync(path) !== project.file) throw new UsageError(`${path} is not the project file of ${root} (that is ${project.file})`);
  return project;
}

/**
 * What the user just approved, in the words of what will run: each server's command, every
 * argument (quoted as JSON, so spaces and empty words show), its environment (an `LD_PRELOAD`
 * must be seen) and working directory, and the files pinned. Every value is escaped (`field`).
 */
export function describeApproval(project: ProjectFile, pins: Readonly<Record<string, string>>): string {
  const lines = [`trusted ${field(project.file)} (sha256 ${project.sha256.slice(0, 12)}…); a change to it, or to a file below, will need a new approval`];
  for (const [name, server] of Object.entries(project.servers)) {
    lines.push(`  ${field(name)}${server.disabled ? " (disabled)" : ""}:`);
    if ("url" in server) {
      lines.push(`    ${server.type} ${field(server.url)}`);
      for (const header of Object.keys(server.headers)) lines.push(`    header ${field(header)}: (set)`);
      continue;
    }
    lines.push(`    command: ${field(JSON.stringify(server.command))}`);
    if (server.args.length > 0) lines.push(`    args: ${server.args.map((arg) => field(JSON.stringify(arg))).join(" ")}`);
    if (server.cwd !== undefined) lines.push(`    cwd: ${field(JSON.stringify(server.cwd))}`);
    for (const [key, value] of Object.entries(server.env)) lines.push(`    env ${field(key)}=${field(JSON.stringify(value))}`);
  }
  const pinned = Object.entries(pins);
  lines.push(pinned.length === 0 ? "  pinned files: none (the servers run nothing from inside the project)" : "  pinned files (a change to any makes this approval lapse):");
  for (const [path, digest] of pinned) lines.push(`    ${field(path)}  ${digest === MISSING_FILE ? "(does not exist yet)" : `sha256 ${digest.slice(0, 12)}…`}`);
  if (project.defaultProfile) lines.push(`  default profile: ${field(project.defaultProfile)}`);
  return lines.join("\n");
}

async function tellDaemon(options: TrustCommandOptions): Promise<void> {
  let client: ToolpoolClient;
  try {
    client = await ToolpoolClient.connect((await locateDaemon({ flag: options.socket })).socketPath);
  } catch (error) {
    if (error instanceof NotRunningError) return;
    throw error;
  }
  try {
    await client.request(Method.ProjectsRescan);
  } finally {
    client.close();
  }
}
