/**
 * Which MCP host entries run a given binary: `uninstall` removes ~/.local/bin/toolpool, and a host
 * whose entry still runs it would fail at its next start with a message the user may never see.
 * Reads each host's user-level files (and Claude Code's per-project entries); unreadable files are
 * passed over (uninstall must not fail on someone's broken JSON).
 */
import { existsSync } from "node:fs";
import { HOST_NAMES, hostFiles, type HostPlaces } from "./host-files.ts";
import { readHostFile } from "./import-servers.ts";

export interface RunningEntry {
  host: string;
  file: string;
  /** The server's name in the host (with its project for Claude Code's per-project entries). */
  server: string;
}

export function hostEntriesRunning(binary: string, places: HostPlaces): RunningEntry[] {
  const found: RunningEntry[] = [];
  const seen = new Set<string>();
  for (const file of HOST_NAMES.flatMap((host) => hostFiles(host, places))) {
    if (seen.has(file.path) || !existsSync(file.path)) continue;
    seen.add(file.path);
    let content: Record<string, unknown>;
    try {
      content = readHostFile(file.path, file.format).content;
    } catch {
      continue;
    }
    const check = (group: unknown, label: string) => {
      if (typeof group !== "object" || group === null) return;
      for (const [name, raw] of Object.entries(group as Record<string, unknown>)) {
        if (typeof raw === "object" && raw !== null && (raw as { command?: unknown }).command === binary) found.push({ host: file.host, file: file.path, server: `${name}${label}` });
      }
    };
    check(file.format === "vscode" ? content.servers : file.format === "codex" ? content.mcp_servers : content.mcpServers, "");
    if (typeof content.projects === "object" && content.projects !== null) {
      for (const [project, entry] of Object.entries(content.projects as Record<string, { mcpServers?: unknown }>)) check(entry?.mcpServers, ` (project ${project})`);
    }
  }
  return found;
}
