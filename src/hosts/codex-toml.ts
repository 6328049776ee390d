/**
 * `host add codex` / `host remove codex`: the bridge entry as a `[mcp_servers.toolpool]` table in
 * Codex CLI's config.toml. The file is edited as text — the table appended, or cut out with its
 * sub-tables — so every other line, comment and table stays exactly as the user wrote it (a TOML
 * round trip through a parser would drop the comments). Backed up first, like the JSON hosts.
 */
import { existsSync, readFileSync } from "node:fs";
import { isToolpoolBridge } from "./convert-server.ts";
import type { HostFile } from "./host-files.ts";
import { readHostFile } from "./import-servers.ts";
import { writeTextFile } from "./write-json-file.ts";

export class CodexEditError extends Error {}

/** host-entry's HostEditOutcome, for this file's two edits (no import back: host-entry imports this). */
interface HostEditOutcome {
  file: string;
  backup?: string;
  entry: "added" | "updated" | "unchanged" | "removed" | "absent";
  moved: string[];
  kept: string[];
  notes: string[];
}

const HEADER = /^\s*\[\s*mcp_servers\s*\.\s*(?:toolpool|"toolpool")\s*(?:\.[^\]]*)?\]\s*(?:#.*)?$/;
const ANY_HEADER = /^\s*\[/;

function currentEntry(file: HostFile): Record<string, unknown> | undefined {
  if (!existsSync(file.path)) return undefined;
  const servers = readHostFile(file.path, "codex").content.mcp_servers as Record<string, unknown> | undefined;
  const entry = servers?.toolpool;
  return typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : undefined;
}

/** The text without the `[mcp_servers.toolpool]` table and its sub-tables. */
function withoutEntry(text: string): string {
  const kept: string[] = [];
  let inside = false;
  for (const line of text.split("\n")) {
    if (HEADER.test(line)) inside = true;
    else if (ANY_HEADER.test(line)) inside = false;
    if (!inside) kept.push(line);
  }
  return kept.join("\n").replace(/\n{3,}/g, "\n\n");
}

export function addCodexEntry(file: HostFile, binary: string, now?: Date): HostEditOutcome {
  const current = currentEntry(file);
  if (current !== undefined && !isToolpoolBridge(current)) {
    throw new CodexEditError(`${file.path} already has a server named "toolpool" that is not toolpool's bridge; rename or remove it first`);
  }
  const notes = existsSync(file.path) ? [] : [`${file.path} did not exist: it is created (is codex installed for this user?)`];
  const wanted = { command: binary, args: ["mcp"] };
  if (current !== undefined && Bun.deepEquals(current, wanted)) return { file: file.path, entry: "unchanged", moved: [], kept: [], notes };
  const before = existsSync(file.path) ? readFileSync(file.path, "utf8") : "";
  const base = withoutEntry(before).replace(/\s*$/, "");
  // JSON string escapes are TOML basic-string escapes.
  const table = `[mcp_servers.toolpool]\ncommand = ${JSON.stringify(binary)}\nargs = ["mcp"]\n`;
  const written = writeTextFile(file.path, `${base}${base ? "\n\n" : ""}${table}`, now);
  return { file: file.path, entry: current === undefined ? "added" : "updated", moved: [], kept: [], notes, ...(written.backup && { backup: written.backup }) };
}

export function removeCodexEntry(file: HostFile, now?: Date): HostEditOutcome {
  const current = currentEntry(file);
  if (current === undefined) return { file: file.path, entry: "absent", moved: [], kept: [], notes: [] };
  if (!isToolpoolBridge(current)) throw new CodexEditError(`the "toolpool" server in ${file.path} is not toolpool's bridge; leaving it`);
  const written = writeTextFile(file.path, `${withoutEntry(readFileSync(file.path, "utf8")).replace(/\s*$/, "")}\n`, now);
  return { file: file.path, entry: "removed", moved: [], kept: [], notes: [], ...(written.backup && { backup: written.backup }) };
}
