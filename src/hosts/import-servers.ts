/**
 * `toolpool config import`: the servers of one or more host files, as one toolpool `mcpServers`
 * record. Names are kept; two different servers under one name are both kept (the later one
 * renamed `NAME-HOST`) and the collision reported; the same server in two files is imported once.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, resolve } from "node:path";
import { JsonTextError, parseJsonText } from "../config/json-text.ts";
import { RESERVED_SERVER_NAME } from "../config/schema.ts";
import { jsonShapeProblem } from "../protocol/line-framer.ts";
import { agentEntry } from "./agent-formats.ts";
import { convertServer, isToolpoolBridge, toolpoolName } from "./convert-server.ts";
import { detectFormat, type FileFormat, type HostFile, type HostName, type HostPlaces } from "./host-files.ts";

/** ~/.claude.json also holds conversation history and grows large; refuse anything past this. */
export const MAX_HOST_FILE_BYTES = 32 * 1024 * 1024;
const MAX_SERVERS_PER_FILE = 1_000;

export interface ImportedServer {
  name: string;
  /** The name in the host's file. */
  hostName: string;
  host: HostName;
  file: string;
  config: Record<string, unknown>;
}

export interface FileReport {
  file: string;
  host: HostName;
  servers: string[];
}

export interface ImportResult {
  mcpServers: Record<string, Record<string, unknown>>;
  servers: ImportedServer[];
  files: FileReport[];
  notes: string[];
  collisions: string[];
}

export class HostFileError extends Error {}

/** A host's config nests a few levels (projects → servers → env); far past that is hostile or broken. */
export const MAX_HOST_FILE_DEPTH = 64;
const MAX_HOST_FILE_MEMBERS = 200_000;

/** The raw server entries of one file, in its own layout. */
export function readHostFile(path: string, format?: FileFormat): { format: FileFormat; host: HostName; content: Record<string, unknown> } {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new HostFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (size > MAX_HOST_FILE_BYTES) throw new HostFileError(`${path} is ${Math.round(size / 1048576)} MiB, over the ${MAX_HOST_FILE_BYTES / 1048576} MiB this reads`);
  let content: unknown;
  try {
    const text = readFileSync(path, "utf8");
    if (format === "codex" || (format === undefined && path.endsWith(".toml"))) content = parseToml(text, path);
    else {
      // Before any parser: a 100,000-deep file would overflow the stack of the native one and of
      // every recursive step after it (conversion, comparison, writing back).
      const shape = jsonShapeProblem(text, MAX_HOST_FILE_DEPTH, MAX_HOST_FILE_MEMBERS);
      if (shape) throw new HostFileError(`${path} holds ${shape}; a host's MCP config never does, so it was not read`);
      // Plain JSON (every host but the editors' JSONC) takes the fast native parser.
      content = parseFast(text) ?? parseJsonText(text, { comments: true });
    }
  } catch (error) {
    if (error instanceof HostFileError) throw error;
    if (error instanceof JsonTextError) throw new HostFileError(`${path} is not valid JSON: ${error.message}`);
    throw new HostFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (typeof content !== "object" || content === null || Array.isArray(content)) throw new HostFileError(`${path} does not hold a JSON object`);
  const detected = format ? { format, host: hostOfFormat(format) } : detectFormat(path, content);
  return { ...detected, content: content as Record<string, unknown> };
}

function parseToml(text: string, path: string): unknown {
  try {
    return Bun.TOML.parse(text);
  } catch (error) {
    throw new HostFileError(`${path} is not valid TOML: ${(error as Error).message}`);
  }
}

function parseFast(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function hostOfFormat(format: FileFormat): HostName {
  return format === "claude-code-user" || format === "claude-code-project" ? "claude-code" : format;
}

/** The entries a host reads from this file (for ~/.claude.json: user ones and this project's). */
export function serverEntries(format: FileFormat, content: Record<string, unknown>, cwd: string): { entries: [string, unknown][]; notes: string[] } {
  const record = (value: unknown) => (typeof value === "object" && value !== null && !Array.isArray(value) ? Object.entries(value as object) : []);
  if (format === "vscode") return { entries: record(content.servers), notes: [] };
  if (format === "codex") return { entries: record(content.mcp_servers), notes: [] };
  if (format !== "claude-code-user") return { entries: record(content.mcpServers), notes: [] };
  const entries = record(content.mcpServers);
  const projects = typeof content.projects === "object" && content.projects !== null ? (content.projects as Record<string, unknown>) : {};
  const project = nearestProject(projects, cwd);
  const notes: string[] = [];
  // Claude Code prefers a project's local servers to the user's of the same name: they come first.
  if (project) entries.unshift(...record((projects[project] as Record<string, unknown> | undefined)?.mcpServers));
  const others = Object.entries(projects).filter(([dir, value]) => dir !== project && record((value as Record<string, unknown> | null)?.mcpServers).length > 0);
  if (others.length > 0) notes.push(`${others.length} other project${others.length === 1 ? "" : "s"} in ~/.claude.json ${others.length === 1 ? "has" : "have"} servers of ${others.length === 1 ? "its" : "their"} own (run this from that directory to import them)`);
  return { entries, notes };
}

/** `skipUnreadable`: a file found by looking (not named) that cannot be read is a note, not a failure. */
/** The project Claude Code would use here: the nearest ancestor of the working directory it knows. */
export function nearestProject(projects: Record<string, unknown>, cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (Object.hasOwn(projects, dir)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

export function importFiles(files: readonly HostFile[], places: HostPlaces, skipUnreadable = false): ImportResult {
  // Server names are data: `__proto__` or `constructor` is a name like any other, never a
  // property of Object.prototype that reads as "already taken".
  const result: ImportResult = { mcpServers: Object.create(null) as ImportResult["mcpServers"], servers: [], files: [], notes: [], collisions: [] };
  const home = places.env.HOME || homedir();
  for (const file of files) {
    let read: ReturnType<typeof readHostFile>;
    try {
      read = readHostFile(file.path, file.format);
    } catch (error) {
      if (!(skipUnreadable && error instanceof HostFileError)) throw error;
      result.notes.push(`skipped ${file.path}: ${error.message}`);
      continue;
    }
    const { format, host, content } = read;
    const { entries, notes } = serverEntries(format, content, places.cwd);
    for (const note of notes) result.notes.push(`${file.path}: ${note}`);
    const inputs = new Map<string, string>();
    if (Array.isArray(content.inputs)) {
      for (const input of content.inputs as Record<string, unknown>[]) if (typeof input?.id === "string") inputs.set(input.id, typeof input.description === "string" ? input.description : "");
    }
    const report: FileReport = { file: file.path, host, servers: [] };
    const projectDir = isProjectFile(file, format, home) ? projectRoot(file.path) : undefined;
    if (entries.length > MAX_SERVERS_PER_FILE) result.notes.push(`${file.path}: ${entries.length} servers; only the first ${MAX_SERVERS_PER_FILE} are read`);
    for (const [hostName, raw] of entries.slice(0, MAX_SERVERS_PER_FILE)) {
      if (toolpoolName(hostName) === RESERVED_SERVER_NAME) {
        result.notes.push(`${file.path}: ${hostName}: not imported: "${RESERVED_SERVER_NAME}" cannot be a server name (JavaScript reserves it); rename it in that file, or add it to your config under another name`);
        continue;
      }
      if (typeof raw === "object" && raw !== null && isToolpoolBridge(raw as Record<string, unknown>)) {
        result.notes.push(`${file.path}: ${hostName}: this is toolpool's own bridge (toolpool mcp); not imported`);
        continue;
      }
      const converted = convertServer(hostName, agentEntry(format, raw), { format, home, inputs, ...(projectDir && { projectDir }) });
      for (const note of converted.notes) result.notes.push(`${file.path}: ${note}`);
      if (!converted.config) continue;
      const name = place(result, toolpoolName(hostName), converted.config, host, file.path);
      if (name === undefined) continue;
      if (name !== hostName && toolpoolName(hostName) === name) result.notes.push(`${file.path}: ${hostName}: renamed ${name} (server names use [a-zA-Z0-9_-])`);
      result.servers.push({ name, hostName, host, file: file.path, config: converted.config });
      report.servers.push(name);
    }
    result.files.push(report);
  }
  return result;
}

/** Where an imported server goes: its name, or NAME-HOST (then NAME-HOST-2, …) when taken by another. */
function place(result: ImportResult, name: string, config: Record<string, unknown>, host: HostName, file: string): string | undefined {
  const existing = Object.hasOwn(result.mcpServers, name) ? result.mcpServers[name] : undefined;
  if (existing === undefined) {
    result.mcpServers[name] = config;
    return name;
  }
  const from = result.servers.find((server) => server.name === name)?.file ?? "an earlier file";
  if (Bun.deepEquals(existing, config)) {
    result.collisions.push(`${name}: the same server is in ${from} and ${file}; imported once`);
    return undefined;
  }
  const renamed = freeName(`${name}-${host}`, (candidate) => Object.hasOwn(result.mcpServers, candidate));
  result.mcpServers[renamed] = config;
  result.collisions.push(`${name}: ${file} has a different server of that name than ${from}; imported as ${renamed}`);
  return renamed;
}

export function freeName(base: string, taken: (name: string) => boolean): string {
  if (!taken(base)) return base;
  for (let index = 2; ; index++) if (!taken(`${base}-${index}`)) return `${base}-${index}`;
}

/** A project's own file (`${workspaceFolder}` is its directory), not a user-level one. */
function isProjectFile(file: HostFile, format: FileFormat, home: string): boolean {
  if (file.scope === "project" || format === "claude-code-project") return true;
  const parent = dirname(dirname(resolve(file.path)));
  return /\/\.(vscode|cursor)\/[^/]+$/.test(file.path) && parent !== resolve(home);
}

/** The project a project-level file belongs to: the directory holding `.vscode/`, `.cursor/` or `.mcp.json`. */
function projectRoot(path: string): string {
  const dir = dirname(resolve(path));
  return /\/\.(vscode|cursor)$/.test(dir) ? dirname(dir) : dir;
}
