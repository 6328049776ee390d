/**
 * `toolpool host add NAME [--tier T] [--move] [--file PATH]` and `toolpool host remove NAME`:
 * point an MCP host at toolpool by writing the bridge entry (`BINARY mcp`, an absolute path) into
 * the host's own config file, backed up first.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isTierName, TIERS } from "../../features/tiers.ts";
import { buildInfo } from "../build-info.ts";
import { loadConfig, locateConfig } from "../config/load.ts";
import { addBridgeEntry, HostEditError, removeBridgeEntry, type HostEditOutcome } from "../hosts/host-entry.ts";
import { defaultPlaces, HOST_NAMES, hostUserFile, isHostName, type HostFile, type HostPlaces } from "../hosts/host-files.ts";
import { HostFileError, readHostFile } from "../hosts/import-servers.ts";
import { rememberMoved, takeMoved } from "../hosts/moved-servers.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";
import { installDirectory } from "./install.ts";

export interface HostCommandOptions {
  json: boolean;
  move: boolean;
  tier?: string;
  file?: string;
  config?: string;
  out: (text: string) => void;
  err: (text: string) => void;
  places?: Partial<HostPlaces>;
  /** The binary the entry runs (tests); default: the installed one, else this one. */
  binary?: string;
}

const USAGE = `usage: toolpool host add NAME [--tier TIER] [--move] [--file PATH] | toolpool host remove NAME [--file PATH]\nhosts: ${HOST_NAMES.join(", ")}`;

export async function hostCommand(args: readonly string[], options: HostCommandOptions): Promise<number> {
  const [action, name, ...extra] = args;
  if ((action !== "add" && action !== "remove") || !name || extra.length > 0) throw new UsageError(USAGE);
  if (!isHostName(name)) throw new UsageError(`unknown host "${name}"; hosts: ${HOST_NAMES.join(", ")}`);
  const places = defaultPlaces(options.places);
  const userFile = hostUserFile(name, places);
  const file: HostFile = options.file ? { ...userFile, path: resolve(places.cwd, options.file), ...(existsSync(options.file) && { format: readHostFile(resolve(places.cwd, options.file)).format }) } : userFile;
  let outcome: HostEditOutcome;
  try {
    if (action === "remove") {
      // Put back what earlier --moves took; kept again if the edit fails.
      const moved = takeMoved(places.env, file.path);
      try {
        outcome = removeBridgeEntry(file, undefined, moved);
      } catch (error) {
        if (moved) rememberMoved(places.env, file.path, moved);
        throw error;
      }
    } else {
      const binary = chooseBinary(options, places);
      const toolpoolServers = options.move ? (await loadConfig(locateConfig(options.config, places.env))).config.mcpServers : {};
      outcome = addBridgeEntry(file, binary, {
        move: options.move,
        toolpoolServers: withDefaults(toolpoolServers),
        places,
        onMoved: (taken) => rememberMoved(places.env, file.path, taken),
      });
    }
  } catch (error) {
    if (error instanceof HostEditError || error instanceof HostFileError) {
      options.err(`toolpool host ${action}: ${error.message}`);
      return ExitCode.Failed;
    }
    throw error;
  }
  if (options.json) {
    options.out(JSON.stringify({ host: name, ...outcome }));
    return ExitCode.Ok;
  }
  const backup = outcome.backup ? ` (the old file is in ${outcome.backup})` : "";
  const said: Record<HostEditOutcome["entry"], string> = {
    added: `added the "toolpool" server to ${outcome.file}${backup}`,
    updated: `updated the "toolpool" server in ${outcome.file}${backup}`,
    unchanged: `${outcome.file} already has this "toolpool" server`,
    removed: `removed the "toolpool" server from ${outcome.file}${backup}`,
    absent: `${outcome.file} has no "toolpool" server; nothing to remove`,
  };
  options.out(said[outcome.entry]);
  for (const note of outcome.notes) options.out(`  note: ${note}`);
  if (outcome.moved.length > 0) options.out(`  moved into toolpool (taken out of ${name}): ${outcome.moved.join(", ")}`);
  if (outcome.kept.length > 0) {
    options.out(`  left in ${name} (not in toolpool's config yet): ${outcome.kept.join(", ")}`);
    options.out(`  to move them too: toolpool config import ${outcome.file} --write && toolpool host add ${name} --move`);
  }
  if (outcome.restored?.length) options.out(`  put back (an earlier --move had taken them out): ${outcome.restored.join(", ")}`);
  if (outcome.entry !== "unchanged" && outcome.entry !== "absent") options.out(`restart ${name} to pick up the change`);
  return ExitCode.Ok;
}

/** Compare like with like: a config entry as the import would write it (zod defaults removed). */
function withDefaults(servers: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(servers)) {
    const copy: Record<string, unknown> = { ...server };
    for (const [key, empty] of [["args", []], ["env", {}], ["headers", {}], ["alwaysLoad", []], ["startup", "eager"], ["disabled", false], ["defer", "auto"]] as const) {
      if (Bun.deepEquals(copy[key], empty)) delete copy[key];
    }
    out[name] = copy;
  }
  return out;
}

/** The binary the host runs: --tier's binary beside this one, else the installed toolpool, else this one. */
function chooseBinary(options: HostCommandOptions, places: HostPlaces): string {
  if (options.binary) return resolve(options.binary);
  const info = buildInfo();
  if (options.tier !== undefined) {
    if (!isTierName(options.tier)) throw new UsageError(`--tier takes ${Object.keys(TIERS).join(", ")}, not ${options.tier}`);
    if (info.compiled && info.tier === options.tier) return process.execPath;
    const beside = join(dirname(process.execPath), `toolpool-${options.tier}`);
    if (info.compiled && existsSync(beside)) return beside;
    throw new UsageError(`no toolpool-${options.tier} binary beside ${process.execPath}; build it (bun run build.ts --tier ${options.tier}) and run host add from it`);
  }
  const installed = join(installDirectory(undefined, places.env), "toolpool");
  if (existsSync(installed)) return installed;
  if (info.compiled) return process.execPath;
  throw new UsageError("this is running from source: install a binary first (dist/toolpool-pro install), or run host add from a built binary");
}
