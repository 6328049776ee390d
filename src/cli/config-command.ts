/**
 * `toolpool config import [FILE...] [--write] [--json]`: the MCP servers a person already has in
 * Claude Desktop, Claude Code, Cursor, VS Code or Windsurf, as toolpool's `mcpServers`. Without
 * FILEs, every host's usual places on this system are read. Prints the result; `--write` merges it
 * into the toolpool config (backed up first; nothing replaced).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ToolpoolClient } from "../client/client.ts";
import { ConfigError, locateConfig } from "../config/load.ts";
import { locateDaemon } from "../client/socket-discovery.ts";
import { defaultPlaces, HOST_NAMES, hostFiles, otherHostFiles, type HostFile, type HostPlaces } from "../hosts/host-files.ts";
import { HostFileError, importFiles, readHostFile } from "../hosts/import-servers.ts";
import { mergeIntoConfig } from "../hosts/merge-config.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";

export interface ConfigCommandOptions {
  json: boolean;
  write: boolean;
  /** The toolpool config `--write` merges into. */
  config?: string;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Tests pass HOME, platform and cwd; the defaults are this process's. */
  places?: Partial<HostPlaces>;
}

const USAGE = "usage: toolpool config import [FILE...] [--write] [--json] [--config PATH]";
const MAX_FILES = 64;

/** The pid of a daemon on the default socket, if one answers within a second. */
async function runningDaemonPid(env: NodeJS.ProcessEnv): Promise<number | undefined> {
  try {
    const client = await ToolpoolClient.connect((await locateDaemon({ env })).socketPath, 1_000);
    try {
      return (await client.status()).pid;
    } finally {
      client.close();
    }
  } catch {
    return undefined;
  }
}

export async function configCommand(args: readonly string[], options: ConfigCommandOptions): Promise<number> {
  const [action, ...files] = args;
  if (action !== "import") throw new UsageError(USAGE);
  if (files.length > MAX_FILES) throw new UsageError(`at most ${MAX_FILES} files at once`);
  const places = defaultPlaces(options.places);
  const skipped: string[] = [];
  // Places a host may use that were not read: said, never silently passed over.
  const elsewhere = files.length > 0 ? [] : otherHostFiles(places).filter((file) => existsSync(file.path));
  const elsewhereNotes = elsewhere.map(
    (file) => `not read: ${file.path} (${file.host}, under ~/.config while XDG_CONFIG_HOME is ${places.env.XDG_CONFIG_HOME}); to import it: toolpool config import ${file.path}`,
  );
  let sources: HostFile[];
  if (files.length > 0) {
    try {
      sources = files.map((file) => {
        const path = resolve(places.cwd, file);
        const { format, host } = readHostFile(path);
        return { host, format, path, scope: "user" as const };
      });
    } catch (error) {
      if (!(error instanceof HostFileError)) throw error;
      options.err(`toolpool config import: ${error.message}`);
      return ExitCode.Failed;
    }
  } else {
    // Run from the home directory, a project path is a user path (~/.cursor/mcp.json): read it once.
    const found = HOST_NAMES.flatMap((host) => hostFiles(host, places))
      .filter((file) => existsSync(file.path))
      .filter((file, index, all) => all.findIndex((other) => other.path === file.path) === index);
    // A project's file came with the project (a cloned repository can hold any command): it is
    // shown, but merged into the user's config only when named on the command line.
    sources = options.write ? found.filter((file) => file.scope === "user") : found;
    for (const file of found) {
      if (options.write && file.scope === "project") skipped.push(`${file.path}: a project's file is not merged unless named: toolpool config import ${file.path} --write`);
    }
    if (found.length === 0) {
      const looked = HOST_NAMES.flatMap((host) => hostFiles(host, places)).map((file) => `  ${file.path}`);
      options.err(
        `toolpool config import: no MCP host config found; looked in:\n${looked.join("\n")}\n` +
          `${elsewhereNotes.map((note) => `${note}\n`).join("")}name a file: toolpool config import PATH`,
      );
      if (options.json) options.out(JSON.stringify({ mcpServers: {}, files: [], notes: elsewhereNotes, collisions: [] }));
      // Nothing found is a failure a script can see (exit 1), not an empty success.
      return ExitCode.Failed;
    }
  }
  let result;
  try {
    result = importFiles(sources, places, files.length === 0);
    result.notes.push(...skipped, ...elsewhereNotes);
  } catch (error) {
    if (error instanceof HostFileError) {
      options.err(`toolpool config import: ${error.message}`);
      return ExitCode.Failed;
    }
    throw error;
  }
  let merge;
  if (options.write) {
    const configPath = locateConfig(options.config, places.env).path!;
    try {
      merge = mergeIntoConfig(configPath, result.servers);
    } catch (error) {
      if (error instanceof ConfigError) {
        options.err(`toolpool config import: not written: ${error.message}`);
        return ExitCode.BadConfig;
      }
      throw error;
    }
  }
  // Files read but no server in any of them: as good as nothing found (exit 1).
  const nothing = result.servers.length === 0 ? ExitCode.Failed : ExitCode.Ok;
  if (options.json) {
    options.out(JSON.stringify({ mcpServers: result.mcpServers, files: result.files, notes: result.notes, collisions: result.collisions, ...(merge && { write: merge }) }));
    return nothing;
  }
  for (const file of result.files) options.err(`read ${file.file} (${file.host}): ${file.servers.length === 0 ? "no servers" : file.servers.join(", ")}`);
  for (const line of result.collisions) options.err(`collision: ${line}`);
  for (const line of result.notes) options.err(`note: ${line}`);
  if (!merge) {
    options.out(JSON.stringify({ mcpServers: result.mcpServers }, null, 2));
    if (result.servers.length > 0) options.err("to add these to your toolpool config: toolpool config import --write (same arguments)");
    else options.err("toolpool config import: no MCP servers in the files read");
    return nothing;
  }
  if (merge.added.length === 0 && merge.renamed.length === 0) {
    options.out(`nothing to write: ${merge.unchanged.length > 0 ? `${merge.unchanged.join(", ")} already in ${merge.configPath}` : "no servers found"}`);
    return nothing;
  }
  options.out(`wrote ${merge.configPath}${merge.backup ? ` (the old file is in ${merge.backup})` : " (a new file)"}`);
  if (merge.added.length > 0) options.out(`  added: ${merge.added.join(", ")}`);
  for (const { from, to } of merge.renamed) options.out(`  ${from}: your config already has a different "${from}" (kept); this one was added as "${to}"`);
  if (merge.unchanged.length > 0) options.out(`  already there: ${merge.unchanged.join(", ")}`);
  const pid = await runningDaemonPid(places.env);
  options.out(
    pid === undefined
      ? "no daemon answers on the default socket: a daemon reads it when it starts (a running one on SIGHUP)"
      : `the running daemon (pid ${pid}) reads it on SIGHUP: kill -HUP ${pid} (or at its next start)`,
  );
  return ExitCode.Ok;
}
