/**
 * `host add` / `host remove`: the `toolpool` server entry (the stdio bridge, `toolpool mcp`) in a
 * host's own config file, written in that host's layout. With `move`, the host's other servers
 * that toolpool's config already holds (the same definition, after conversion) are taken out of
 * the host, so the host sees one server; one toolpool does not have stays, and is named.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { convertServer, isToolpoolBridge } from "./convert-server.ts";
import type { FileFormat, HostFile, HostPlaces } from "./host-files.ts";
import { nearestProject, readHostFile } from "./import-servers.ts";
import { addCodexEntry, CodexEditError, removeCodexEntry } from "./codex-toml.ts";
import type { MovedServers } from "./moved-servers.ts";
import { writeJsonFile } from "./write-json-file.ts";

export const BRIDGE_ENTRY_NAME = "toolpool";

export interface HostEditOutcome {
  file: string;
  backup?: string;
  /** added, updated (an older bridge entry), unchanged, removed, absent. */
  entry: "added" | "updated" | "unchanged" | "removed" | "absent";
  moved: string[];
  /** Host servers --move left because toolpool's config has no such server. */
  kept: string[];
  notes: string[];
  /** host remove: servers an earlier --move took out, put back (a name the host has again is left as it is). */
  restored?: string[];
}

export class HostEditError extends Error {}

function serversKey(format: FileFormat): "servers" | "mcpServers" {
  return format === "vscode" ? "servers" : "mcpServers";
}

function isRecord(value: unknown): value is Record<string, Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function bridgeEntry(format: FileFormat, binary: string): Record<string, unknown> {
  if (format === "vscode") return { type: "stdio", command: binary, args: ["mcp"] };
  if (format === "claude-code-user" || format === "claude-code-project") return { type: "stdio", command: binary, args: ["mcp"], env: {} };
  return { command: binary, args: ["mcp"] };
}

function load(file: HostFile): { content: Record<string, unknown>; notes: string[] } {
  try {
    const { content } = readHostFile(file.path, file.format);
    // JSONC (VS Code, Cursor) is written back as JSON: say what the rewrite drops.
    let plain = true;
    try {
      JSON.parse(readFileSync(file.path, "utf8"));
    } catch {
      plain = false;
    }
    return { content, notes: plain ? [] : [`${file.path} had comments or trailing commas; the rewritten file has none (the backup keeps them)`] };
  } catch (error) {
    if ((error as Error).message.includes("ENOENT")) return { content: {}, notes: [`${file.path} did not exist: it is created (is ${file.host} installed for this user?)`] };
    throw error;
  }
}

export function addBridgeEntry(
  file: HostFile,
  binary: string,
  options: {
    move: boolean;
    toolpoolServers: Record<string, unknown>;
    places: HostPlaces;
    now?: Date;
    /** Told the definitions --move took out, before the file is written (so host remove can restore them). */
    onMoved?: (taken: MovedServers) => void;
  },
): HostEditOutcome {
  if (file.format === "codex") {
    if (options.move) throw new HostEditError(`--move is not supported for codex's TOML config: after config import --write, take the servers out of ${file.path} by hand`);
    return codexEdit(() => addCodexEntry(file, binary, options.now));
  }
  const { content, notes } = load(file);
  const key = serversKey(file.format);
  const servers = { ...(typeof content[key] === "object" && content[key] !== null ? (content[key] as Record<string, unknown>) : {}) };
  const wanted = bridgeEntry(file.format, binary);
  const current = servers[BRIDGE_ENTRY_NAME] as Record<string, unknown> | undefined;
  if (current !== undefined && !isToolpoolBridge(current)) {
    throw new HostEditError(`${file.path} already has a server named "${BRIDGE_ENTRY_NAME}" that is not toolpool's bridge; rename or remove it first`);
  }
  const entry = current === undefined ? "added" : Bun.deepEquals(current, wanted) ? "unchanged" : "updated";
  servers[BRIDGE_ENTRY_NAME] = wanted;
  const outcome: HostEditOutcome = { file: file.path, entry, moved: [], kept: [], notes };
  let next: Record<string, unknown> = { ...content, [key]: servers };
  if (options.move) {
    const known = Object.values(options.toolpoolServers);
    const home = options.places.env.HOME || homedir();
    const taken: MovedServers = { servers: {}, projects: {} };
    const take = (group: Record<string, unknown>, label: string, into: Record<string, unknown>) => {
      for (const [name, raw] of Object.entries(group)) {
        if (name === BRIDGE_ENTRY_NAME) continue;
        const converted = convertServer(name, raw, { format: file.format, home, inputs: new Map() });
        if (converted.config && known.some((server) => Bun.deepEquals(server, converted.config))) {
          into[name] = raw;
          delete group[name];
          outcome.moved.push(`${name}${label}`);
        } else outcome.kept.push(`${name}${label}`);
      }
    };
    take(servers, "", taken.servers);
    // Claude Code also shows this directory's project servers from ~/.claude.json (local scope).
    const projects = file.format === "claude-code-user" && isRecord(content.projects) ? content.projects : undefined;
    const project = projects ? nearestProject(projects, options.places.cwd) : undefined;
    if (projects && project && isRecord(projects[project]) && isRecord(projects[project].mcpServers)) {
      const local = { ...projects[project].mcpServers };
      taken.projects[project] = {};
      take(local, ` (project ${project})`, taken.projects[project]);
      if (Object.keys(taken.projects[project]).length === 0) delete taken.projects[project];
      next = { ...next, projects: { ...projects, [project]: { ...projects[project], mcpServers: local } } };
    }
    options.onMoved?.(taken);
  }
  if (entry === "unchanged" && outcome.moved.length === 0) return outcome;
  const written = writeJsonFile(file.path, next, options.now);
  return { ...outcome, ...(written.backup && { backup: written.backup }) };
}

/**
 * Takes toolpool's entry out and puts back what earlier `--move`s took (`restore`): a server is put
 * back only under a name the host does not use again since, so nothing the user added is replaced.
 */
export function removeBridgeEntry(file: HostFile, now?: Date, restore?: MovedServers): HostEditOutcome {
  if (file.format === "codex") return codexEdit(() => removeCodexEntry(file, now));
  const { content, notes } = load(file);
  const key = serversKey(file.format);
  const servers = { ...(typeof content[key] === "object" && content[key] !== null ? (content[key] as Record<string, unknown>) : {}) };
  const current = servers[BRIDGE_ENTRY_NAME] as Record<string, unknown> | undefined;
  if (current !== undefined && !isToolpoolBridge(current)) throw new HostEditError(`the "${BRIDGE_ENTRY_NAME}" server in ${file.path} is not toolpool's bridge; leaving it`);
  const restored: string[] = [];
  const putBack = (group: Record<string, unknown>, moved: Record<string, unknown>, label: string) => {
    for (const [name, raw] of Object.entries(moved)) {
      if (name in group) notes.push(`${name}${label} was not put back: the host has a server of that name again`);
      else {
        group[name] = raw;
        restored.push(`${name}${label}`);
      }
    }
  };
  putBack(servers, restore?.servers ?? {}, "");
  const next: Record<string, unknown> = { ...content, [key]: servers };
  const projects: Record<string, Record<string, unknown>> = { ...(isRecord(content.projects) ? content.projects : {}) };
  for (const [project, moved] of Object.entries(restore?.projects ?? {})) {
    const entry = isRecord(projects[project]) ? projects[project] : {};
    const local = { ...(isRecord(entry.mcpServers) ? entry.mcpServers : {}) };
    putBack(local, moved, ` (project ${project})`);
    projects[project] = { ...entry, mcpServers: local };
    next.projects = projects;
  }
  if (current === undefined && restored.length === 0) return { file: file.path, entry: "absent", moved: [], kept: [], notes: [] };
  delete servers[BRIDGE_ENTRY_NAME];
  const written = writeJsonFile(file.path, next, now);
  return { file: file.path, entry: current === undefined ? "absent" : "removed", moved: [], kept: [], notes, restored, ...(written.backup && { backup: written.backup }) };
}

function codexEdit(edit: () => HostEditOutcome): HostEditOutcome {
  try {
    return edit();
  } catch (error) {
    if (error instanceof CodexEditError) throw new HostEditError(error.message);
    throw error;
  }
}
