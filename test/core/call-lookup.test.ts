/**
 * A call resolves its tool once: the MCP face's check, the profile check, the call's counters and
 * the pipeline's resolve stage share one answer (they were four lookups); the usage history's record
 * of what ran, made after the call, is the one other.
 */
import { expect, test } from "bun:test";
import { coreHarness } from "../helpers/core-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";

test("an MCP tools/call asks the pool for its tool once for the call, once for the usage record (it was five)", async () => {
  const { core, open } = coreHarness({ builtins: [echoTool] });
  const session = open({ delivery: "standard" });
  const pool = core.pool();
  const get = pool.get.bind(pool);
  const asked: string[] = [];
  (pool as { get: typeof pool.get }).get = (name) => {
    asked.push(name);
    return get(name);
  };
  const result = await core.callForMcp(session, "Echo", { text: "once" }, new AbortController().signal);
  expect({ result, asked }).toEqual({ result: { content: [{ type: "text", text: "once" }], isError: false }, asked: ["Echo", "Echo"] });
  // A name the session does not have is still refused as a request error.
  await expect(core.callForMcp(session, "Nope", {}, new AbortController().signal)).rejects.toThrow("Unknown tool: Nope");
});
