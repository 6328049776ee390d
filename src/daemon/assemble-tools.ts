/**
 * `toolpool/assemble` before deferral: every enabled tool, in pool order, in the session's format.
 * Each tool's serialized bytes are frozen in the session on first use (schema stability).
 */
import type { Session } from "../session/session.ts";
import type { Tool } from "../tool/tool.ts";
import type { DaemonState } from "./state.ts";

export function serializeToolsForSession(state: DaemonState, session: Session, _messages: readonly unknown[]) {
  const tools = state.pool().tools.filter((tool) => tool.isEnabled());
  const serialized = tools.map((tool) => {
    let bytes = session.serializedTools.get(tool.name);
    if (bytes === undefined) {
      bytes = JSON.stringify(toWire(tool, session.settings.format));
      session.serializedTools.set(tool.name, bytes);
    }
    return JSON.parse(bytes) as Record<string, unknown>;
  });
  return { tools: serialized, counts: { core: serialized.length, deferred: 0, discovered: 0 } };
}

function toWire(tool: Tool, format: "anthropic" | "openai"): Record<string, unknown> {
  if (format === "openai") {
    return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputJSONSchema } };
  }
  return { name: tool.name, description: tool.description, input_schema: tool.inputJSONSchema };
}
