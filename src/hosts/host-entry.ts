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
  options: { move: boolean; toolpoolServers: Record<string, unknown>; places: HostPlaces; now?: Date },
): HostEditOutcome {
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
    const take = (group: Record<string, unknown>, label: string) => {
      for (const [name, raw] of Object.entries(group)) {
        if (name === BRIDGE_ENTRY_NAME) continue;
        const converted = convertServer(name, raw, { format: file.format, home, inputs: new Map() });
        if (converted.config && known.some((server) => Bun.deepEquals(server, converted.config))) {
          delete group[name];
          outcome.moved.push(`${name}${label}`);
        } else outcome.kept.push(`${name}${label}`);
      }
    };
    take(servers, "");
    // Claude Code also shows this directory's project servers from ~/.claude.json (local scope).
    const projects = file.format === "claude-code-user" && isRecord(content.projects) ? content.projects : undefined;
    const project = projects ? nearestProject(projects, options.places.cwd) : undefined;
    if (projects && project && isRecord(projects[project]) && isRecord(projects[project].mcpServers)) {
      const local = { ...projects[project].mcpServers };
      take(local, ` (project ${project})`);
      next = { ...next, projects: { ...projects, [project]: { ...projects[project], mcpServers: local } } };
    }
  }
  if (entry === "unchanged" && outcome.moved.length === 0) return outcome;
  const written = writeJsonFile(file.path, next, options.now);
  return { ...outcome, ...(written.backup && { backup: written.backup }) };
}

export function removeBridgeEntry(file: HostFile, now?: Date): HostEditOutcome {
  const { content, notes } = load(file);
  const key = serversKey(file.format);
  const servers = { ...(typeof content[key] === "object" && content[key] !== null ? (content[key] as Record<string, unknown>) : {}) };
  const current = servers[BRIDGE_ENTRY_NAME] as Record<string, unknown> | undefined;
  if (current === undefined) return { file: file.path, entry: "absent", moved: [], kept: [], notes: [] };
  if (!isToolpoolBridge(current)) throw new HostEditError(`the "${BRIDGE_ENTRY_NAME}" server in ${file.path} is not toolpool's bridge; leaving it`);
  delete servers[BRIDGE_ENTRY_NAME];
  const written = writeJsonFile(file.path, { ...content, [key]: servers }, now);
  return { file: file.path, entry: "removed", moved: [], kept: [], notes, ...(written.backup && { backup: written.backup }) };
}
