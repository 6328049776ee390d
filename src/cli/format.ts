/** Human output for the CLI: short, aligned, no colour codes when not on a terminal. */
import type { StatusResult, ToolsResult } from "../protocol/methods.ts";

export function formatStatus(status: StatusResult): string {
  const lines = [
    `toolpool ${status.version} (${status.tier}${status.features.length ? `: ${status.features.join(", ")}` : ""})`,
    `  pid ${status.pid}, up ${formatDuration(status.uptimeMs)}, socket ${status.socket}`,
    `  sessions: ${status.sessions.active} active, ${status.sessions.detached} detached; connections: ${status.connections}`,
    `  tools: ${status.tools.total} (${status.tools.builtin} built-in, ${status.tools.mcp} MCP)`,
    `  calls: ${status.calls.total} total, ${status.calls.inFlight} in flight`,
    `  memory: ${(status.memory.rssBytes / 1048576).toFixed(1)} MiB resident`,
  ];
  return lines.join("\n");
}

export function formatTools(result: ToolsResult): string {
  const width = Math.min(48, Math.max(4, ...result.tools.map((tool) => tool.name.length)));
  const lines = result.tools.map((tool) => {
    const flags = [tool.deferred ? "deferred" : "core", tool.readOnly ? "read-only" : "", tool.source === "mcp" ? `mcp:${tool.server}` : ""]
      .filter(Boolean)
      .join(", ");
    const summary = firstSentence(tool.description);
    return `${tool.name.padEnd(width)}  [${flags}] ${summary}`;
  });
  for (const collision of result.collisions) {
    lines.push(`! name collision on ${collision.name}: kept ${collision.kept}, dropped ${collision.dropped.join(", ")}`);
  }
  lines.push(`${result.tools.length} tools`);
  return lines.join("\n");
}

function firstSentence(text: string): string {
  const line = text.split("\n")[0] ?? "";
  const end = line.search(/\.(\s|$)/);
  const sentence = end === -1 ? line : line.slice(0, end + 1);
  return sentence.length > 80 ? `${sentence.slice(0, 77)}...` : sentence;
}

export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}
