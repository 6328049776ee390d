/**
 * Finding and reading the config: `--config`, else $TOOLPOOL_CONFIG, else
 * $XDG_CONFIG_HOME/toolpool/config.json (~/.config when unset). No file at the default place is
 * fine (built-in tools only); a named file that is missing, or any file with an error, is refused.
 */
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { z } from "zod";
import { readRegularFileSync } from "../runtime/bounded-file.ts";
import { describeIssue } from "./issue-text.ts";
import { JsonTextError, parseJsonText } from "./json-text.ts";
import { configSchema, reservedServerNameProblem, type Config } from "./schema.ts";
import { BUILTIN_TOOL_GROUPS, expandEntries, ProfileError, resolveProfile } from "../pool/profile.ts";

/** A config is a page of JSON; past this it is a mistake (or a device), not a config. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export class ConfigError extends Error {}

export interface ConfigSource {
  path: string | null;
  /** Whether the path was named explicitly (then it must exist). */
  explicit: boolean;
}

export function locateConfig(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): ConfigSource {
  if (flag) return { path: flag, explicit: true };
  if (env.TOOLPOOL_CONFIG) return { path: env.TOOLPOOL_CONFIG, explicit: true };
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return { path: join(base, "toolpool", "config.json"), explicit: false };
}

export async function loadConfig(source: ConfigSource): Promise<{ config: Config; path: string | null }> {
  if (!source.path) return { config: parseConfig({}, "(defaults)"), path: null };
  // One non-blocking descriptor, checked and read: a FIFO at the config path (at start or on SIGHUP)
  // is refused instead of blocking the daemon in open(2).
  const read = readRegularFileSync(source.path, MAX_CONFIG_BYTES);
  if (!read.ok) {
    if (!source.explicit && read.missing) return { config: parseConfig({}, "(defaults)"), path: null };
    throw new ConfigError(`cannot read config ${source.path}: ${read.reason}`);
  }
  const raw = parseConfigText(read.text, `config ${source.path}`);
  const parsed = parseConfig(raw, source.path);
  const config = parsed.workspaceRoots ? { ...parsed, workspaceRoots: parsed.workspaceRoots.map((root) => expandHome(root)) } : parsed;
  checkWorkspaceRoots(config, source.path);
  return { config, path: source.path };
}

/** `~` and `~/…` are the user's home, as a shell would read them (a config is often written by hand). */
export function expandHome(path: string, env: NodeJS.ProcessEnv = process.env): string {
  if (path !== "~" && !path.startsWith("~/")) return path;
  return join(env.HOME || homedir(), path.slice(1));
}

/**
 * Workspace roots must be directories that exist (relative ones are read from the daemon's working
 * directory, as sessions read them): a missing one would otherwise be accepted here and then fail
 * every session that does not name its own roots.
 */
function checkWorkspaceRoots(config: Config, origin: string): void {
  const problems = (config.workspaceRoots ?? []).flatMap((root, index) => {
    const absolute = resolve(root);
    let directory: boolean;
    try {
      directory = statSync(absolute).isDirectory();
    } catch {
      return [`  - field "workspaceRoots.${index}": ${absolute} does not exist`];
    }
    return directory ? [] : [`  - field "workspaceRoots.${index}": ${absolute} is not a directory`];
  });
  if (problems.length > 0) throw new ConfigError(`config ${origin} is invalid:\n${problems.join("\n")}`);
}

export function parseConfig(raw: unknown, origin: string): Config {
  const reserved = reservedServerNameProblem((raw as { mcpServers?: unknown } | null)?.mcpServers, `config ${origin} is invalid: mcpServers`);
  if (reserved) throw new ConfigError(reserved);
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) {
    checkProfiles(parsed.data, origin);
    return parsed.data;
  }
  throw new ConfigError(`config ${origin} is invalid:\n${describeIssues(parsed.error.issues, configSchema)}`);
}

/** Every profile must expand (no unknown group, no cycle): a broken one would fail every session that picks it. */
function checkProfiles(config: Config, origin: string): void {
  const problems: string[] = [];
  for (const name of Object.keys(config.profiles)) {
    try {
      resolveProfile(name, config);
    } catch (error) {
      if (!(error instanceof ProfileError)) throw error;
      problems.push(`  - ${error.message}`);
    }
  }
  for (const [group, entries] of Object.entries(config.toolGroups)) {
    try {
      expandEntries(entries, { ...BUILTIN_TOOL_GROUPS, ...config.toolGroups }, `toolGroups.${group}`, [group]);
    } catch (error) {
      if (!(error instanceof ProfileError)) throw error;
      problems.push(`  - ${error.message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`config ${origin} is invalid:\n${[...new Set(problems)].join("\n")}`);
}


/** JSON text to a value, or a ConfigError that says where (`line 3, column 5`) the mistake is. */
export function parseConfigText(text: string, what: string): unknown {
  try {
    return parseJsonText(text);
  } catch (error) {
    if (error instanceof JsonTextError) throw new ConfigError(`${what} is not valid JSON: ${error.message}`);
    throw error;
  }
}

/** `schema`, when given, lets an unknown key be answered with the nearest known one. */
/** At most this many problems are listed: the answer to a hostile request stays small. */
const MAX_ISSUES_LISTED = 20;

export function describeIssues(issues: readonly z.core.$ZodIssue[], schema?: z.ZodType): string {
  const listed = issues.slice(0, MAX_ISSUES_LISTED).map((issue) => describeIssue(issue, schema));
  if (issues.length > MAX_ISSUES_LISTED) listed.push(`  - and ${issues.length - MAX_ISSUES_LISTED} more problems`);
  return listed.join("\n");
}
