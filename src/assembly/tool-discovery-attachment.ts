/**
 * The `tool_discovery` attachment: what prefetch hands the client to insert before the next request
 * (SPEC §9), as a text block (in a user message, or the system text):
 *
 *   <tool-discovery>
 *   These deferred tools may help with the request. Call one with ExecuteExtraTool {"tool_name": …, "params": {…}}.
 *   ### mcp__github__create_issue
 *   Create an issue in a repository.
 *   Input schema: {"type":"object",…}
 *   [toolpool discovered: mcp__github__create_issue]
 *   </tool-discovery>
 *
 * In proxy delivery it carries the schemas and the discovered line, so ExecuteExtraTool may run the
 * tools at once. In native delivery a text block cannot load a definition (only a `tool_reference`
 * in a tool result can), so the attachment only suggests: names and short descriptions, no
 * discovered line, and the model loads what it wants with `select:`.
 */
import type { Delivery } from "../deferral/delivery.ts";
import { EXECUTE_EXTRA_TOOL_NAME, TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import { formatDiscoveredLine, parseDiscoveredLines, taggedBlocks } from "./discovered-line.ts";
import { TOOL_DISCOVERY_TAG } from "./marker-tags.ts";
import { toolAsText } from "./tool-text.ts";
import type { WireFacts } from "./wire-format.ts";

export function renderToolDiscovery(tools: readonly WireFacts[], delivery: Exclude<Delivery, "standard">): string | null {
  if (tools.length === 0) return null;
  const names = tools.map((tool) => tool.name);
  const proxy = delivery === "proxy";
  const intro = proxy
    ? `These deferred tools may help with the request. Call one with ${EXECUTE_EXTRA_TOOL_NAME} {"tool_name": "<name>", "params": {…}}; params must match its input schema.`
    : `These deferred tools may help with the request. To use one, load it first with ${TOOL_SEARCH_TOOL_NAME} {"query": "select:${names.join(",")}"}.`;
  const lines = [`<${TOOL_DISCOVERY_TAG}>`, intro];
  for (const tool of tools) lines.push(toolAsText(tool, { schema: proxy, short: true }));
  if (proxy) lines.push(formatDiscoveredLine(names));
  lines.push(`</${TOOL_DISCOVERY_TAG}>`);
  return lines.join("\n");
}

/** Names a text's `<tool-discovery>` blocks made available (proxy attachments only carry any). */
export function parseToolDiscovery(text: string): string[] {
  return taggedBlocks(text, TOOL_DISCOVERY_TAG).flatMap(parseDiscoveredLines);
}
