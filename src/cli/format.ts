/**
 * Human output for the CLI: short, aligned, no colour codes when not on a terminal. Every field
 * that came from a file, a config or a server goes through `field` (escaped, one line); the CLI's
 * sink escapes whole outputs again (runtime/terminal-text.ts), so a printer that forgets still
 * sends no control sequence.
 */
import { escapeTerminal } from "../runtime/terminal-text.ts";
import { loginCommand } from "../protocol/login-command.ts";
import type { ServerSummary, StatusResult, ToolsResult } from "../protocol/methods.ts";

/** One value from outside, shown on one line with every control character visible. */
export function field(text: string): string {
  return escapeTerminal(text);
}

export function formatStatus(status: StatusResult): string {
  const lines = [
    `toolpool ${status.version} (${status.tier}${status.features.length ? `: ${status.features.join(", ")}` : ""})`,
    `  pid ${status.pid}, up ${formatDuration(status.uptimeMs)}, socket ${status.socket}`,
    `  sessions: ${status.sessions.active} active, ${status.sessions.detached} detached; connections: ${status.connections}`,
    `  tools: ${status.tools.total} (${status.tools.builtin} built-in, ${status.tools.mcp} MCP)`,
    `  calls: ${status.calls.total} total, ${status.calls.inFlight} in flight`,
    `  memory: ${(status.memory.rssBytes / 1048576).toFixed(1)} MiB resident`,
  ];
  if (status.sandbox) lines.push(`  sandbox: ${status.sandbox.confined ? "" : "NOT CONFINED — "}mode ${status.sandbox.mode}, network ${status.sandbox.network}: ${status.sandbox.summary}`);
  if (status.guard) {
    const shown = status.guard.deferred.slice(0, 5).join(", ");
    lines.push(`  warning: ${plural(status.guard.deferred.length, "tool")} deferred by the tool-count guard (maxToolsInArray ${status.guard.maxToolsInArray}): ${shown}${status.guard.deferred.length > 5 ? ", …" : ""} — toolpool explain NAME`);
  }
  if (status.arrayLimit) {
    lines.push(`  warning: the tools array limit (maxToolsInArray ${status.arrayLimit.maxToolsInArray}) changed ${plural(status.arrayLimit.requests, "request")}; last: ${status.arrayLimit.last}`);
  }
  const servers = status.mcpServers as Record<string, number> | undefined;
  if (servers && servers.total) {
    const states = Object.entries(servers).filter(([state]) => state !== "total").map(([state, count]) => `${count} ${state}`);
    lines.push(`  MCP servers: ${servers.total} (${states.join(", ")}) — details: toolpool servers`);
    // Servers that wait for a person, not for time: say what they wait for.
    const waiting = [
      servers["needs-auth"] ? `${servers["needs-auth"]} need an OAuth login (toolpool auth login NAME)` : "",
      servers.untrusted ? `${servers.untrusted} wait for their project file to be trusted (toolpool trust PATH)` : "",
    ].filter(Boolean);
    if (waiting.length > 0) lines.push(`  waiting: ${waiting.join("; ")} — toolpool servers says which`);
  }
  return lines.join("\n");
}

/** Names past this width get a line of their own, so one long MCP name does not push every row. */
const TOOL_NAME_COLUMN = 40;

export function formatTools(result: ToolsResult): string {
  const tools = result.tools.map((tool) => ({ ...tool, name: field(tool.name), ...(tool.server !== undefined && { server: field(tool.server) }) }));
  const width = Math.min(TOOL_NAME_COLUMN, Math.max(4, ...tools.map((tool) => tool.name.length)));
  const lines = tools.map((tool) => {
    const flags = [
      tool.deferred ? "deferred" : "core",
      tool.readOnly ? "read-only" : "",
      tool.source === "mcp" ? `mcp:${tool.server}` : "",
      tool.stale ? "cached" : "",
      tool.changed ? "changed since first seen" : "",
      tool.needsAuth ? `needs login: ${loginCommand(tool.server ?? "")}` : "",
    ]
      .filter(Boolean)
      .join(", ");
    const summary = firstSentence(tool.description);
    const name = tool.name.length > width ? `${tool.name}\n${" ".repeat(width)}` : tool.name.padEnd(width);
    return `${name}  [${flags}] ${summary}`.trimEnd();
  });
  for (const collision of result.collisions) {
    lines.push(`! name collision on ${field(collision.name)}: kept ${field(collision.kept)}, dropped ${collision.dropped.map(field).join(", ")}`);
  }
  lines.push(plural(result.tools.length, "tool"));
  return lines.join("\n");
}

/** `1 tool`, `2 tools`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** The first sentence of the first line with words (many MCP descriptions open with a newline). */
export function firstSentence(text: string): string {
  const line = (text.split("\n").find((candidate) => candidate.trim() !== "") ?? "").trim().replace(/\s+/g, " ");
  const end = line.search(/\.(\s|$)/);
  const sentence = end === -1 ? line : line.slice(0, end + 1);
  return field(sentence.length > 80 ? `${sentence.slice(0, 77)}...` : sentence);
}

export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}

export function formatServers(servers: readonly ServerSummary[]): string {
  if (servers.length === 0) return "no MCP servers configured";
  const width = Math.min(32, Math.max(4, ...servers.map((server) => field(server.name).length)));
  const lines: string[] = [];
  for (const server of servers) {
    const name = field(server.name);
    const facts = [
      `${plural(server.toolCount, "tool")}${server.stale ? " (cached)" : ""}`,
      server.transport,
      server.startup === "lazy" ? "lazy" : "",
      server.pid !== undefined ? `pid ${server.pid}` : "",
      server.restarts > 0 ? plural(server.restarts, "restart") : "",
      server.inFlight > 0 ? `${plural(server.inFlight, "call")} running` : "",
    ].filter(Boolean);
    lines.push(`${name.padEnd(width)}  ${server.state.padEnd(9)}  ${facts.join(", ")}`);
    if (server.reason) lines.push(`${" ".repeat(width)}  ${field(server.reason)}`);
    if (server.nextRetryAt) lines.push(`${" ".repeat(width)}  next attempt at ${server.nextRetryAt}`);
    if (server.changedTools.length > 0) lines.push(`${" ".repeat(width)}  changed since first seen: ${server.changedTools.map(field).join(", ")}`);
  }
  return lines.join("\n");
}
