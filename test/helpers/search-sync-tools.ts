/** What the SearchSync tests (scheduler, impact sweep, query warm-up) share: a pool tool and a turn of the event loop. */
import type { Tool } from "../../src/tool/tool.ts";

/** A pool tool of `server` with one string parameter; only its name and words matter to the index. */
export function poolTool(name: string, description: string, server = "srv"): Tool {
  return { name: `mcp__${server}__${name}`, description, inputJSONSchema: { type: "object", properties: { city: { type: "string" } } }, aliases: [], mcpInfo: { server, tool: name } } as unknown as Tool;
}

/** Lets whatever is queued on the event loop (a resolved yield, a timer of 0) run. */
export async function settle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}
