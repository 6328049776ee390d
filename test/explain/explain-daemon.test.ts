/** `toolpool/explain` through the daemon's dispatcher, in memory: real sessions, searches, rules and flags. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { dispatchHarness, type MemoryPeer } from "../helpers/dispatch-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";

const weather = buildTool({
  name: "WeatherForecast",
  description: "Get the weather forecast for a city: temperature, rain and wind.",
  inputSchema: z.strictObject({ city: z.string() }),
  shouldDefer: true,
  call: async ({ city }) => textResult(`Sunny in ${city}`),
});
const secret = buildTool({ name: "SecretTool", description: "Never shown.", inputSchema: z.strictObject({}), call: async () => textResult("") });

async function result(client: MemoryPeer, method: string, params: Record<string, unknown> = {}) {
  const response = await client.request(method, params);
  if (response.error) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

describe("toolpool/explain in the daemon", () => {
  test("deferred, then discovered by this session's search (the query named), then its state for another session", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool, weather] });
    using client = harness.peer();
    const { sessionId } = await result(client, "toolpool/session", { model: "gpt-5", provider: "openai", delivery: "proxy" });
    const before = await result(client, "toolpool/explain", { name: "WeatherForecast" });
    expect(before).toMatchObject({ session: sessionId, inToolsArray: false, callable: false, summary: "WeatherForecast is deferred and not discovered yet: it waits behind ToolSearch" });
    await result(client, "toolpool/call", { name: "ToolSearch", input: { query: "weather forecast city" } });
    const after = await result(client, "toolpool/explain", { name: "WeatherForecast" });
    expect(after).toMatchObject({ callable: true, inToolsArray: false });
    expect((after.decisions as unknown[]).at(-1)).toEqual({
      step: "discovered",
      verdict: "pass",
      reason: 'discovered by this session\'s ToolSearch "weather forecast city"',
      via: "search",
      query: "weather forecast city",
    });
    // Another connection with no session of its own is never told this one's id; it may name it.
    using other = harness.peer();
    expect((await result(other, "toolpool/explain", { name: "WeatherForecast" })).session).toBeUndefined();
    const named = await result(other, "toolpool/explain", { name: "Echo", sessionId });
    expect(named).toMatchObject({ session: sessionId, inToolsArray: true, summary: "Echo is sent in full in every request (core)" });
    // Explaining opens nothing: still one session.
    expect(((await result(other, "toolpool/status")).sessions as { active: number; detached: number })).toEqual({ active: 1, detached: 0 });
  });

  test("a name that does not exist gets did-you-mean from the real index; a bad session id and a bad name are refused", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool, weather] });
    using client = harness.peer();
    const missing = await result(client, "toolpool/explain", { name: "WeatherForcast" });
    expect(missing).toMatchObject({ inToolsArray: false, didYouMean: ["WeatherForecast"], summary: 'no tool named "WeatherForcast"; did you mean WeatherForecast?' });
    expect(missing.session).toBeUndefined();
    const unknown = await client.request("toolpool/explain", { name: "Echo", sessionId: "nope" });
    expect(unknown.error).toEqual({ code: -32602, message: 'Invalid params: field "sessionId": no session "nope"; open one with toolpool/session' });
    const bad = await client.request("toolpool/explain", { name: "a,b" });
    expect((bad.error as { code: number }).code).toBe(-32602);
    expect((bad.error as { message: string }).message).toContain("a tool name has no commas or spaces");
  });

  test("denied by the config's rule; switched off by the kill switch", async () => {
    const file = join(tempSocketDir(), "features.json");
    await Bun.write(file, JSON.stringify({ features: { disabled_tools: { defaultValue: ["Echo"] } } }));
    await using harness = dispatchHarness({ builtins: [echoTool, weather, secret], config: { permissions: { deny: ["SecretTool"] }, flags: { file } } });
    using client = harness.peer();
    const denied = await result(client, "toolpool/explain", { name: "SecretTool" });
    expect(denied.decisions).toEqual([
      { step: "deny_rule", verdict: "blocked", reason: 'removed from the pool by the deny rule "SecretTool" in the config', rule: "SecretTool", source: "the config" },
    ]);
    await result(client, "toolpool/session", { delivery: "standard" });
    const killed = await result(client, "toolpool/explain", { name: "Echo" });
    expect(killed).toMatchObject({ inToolsArray: false, callable: false, summary: "Echo is switched off for this session (kill switch)" });
  });
});
