/**
 * One view of a session: `toolpool/search`, ToolSearch, `toolpool/explain`, `toolpool/assemble` and
 * `toolpool/stats` answer from the same facts about a session (its profile, permissions, kill switch
 * at open), so they cannot drift apart. Each test here is a drift the daemon once had. (The OAuth
 * one, a tool of a server waiting for a login, is in test/mcp/oauth.test.ts beside its fixture.)
 */
import { describe, expect, test } from "bun:test";
import { builtinTools } from "../../src/builtin/list.ts";
import { isDeferredTool } from "../../src/deferral/is-deferred.ts";
import type { MethodName, ParamsOf } from "../../src/protocol/method-table.ts";
import { standardTokens } from "../../src/usage/standard-tokens.ts";
import { dispatchHarness } from "../helpers/dispatch-harness.ts";

const config = {
  profiles: {
    readers: { include: ["Read", "Grep"] },
    fetchers: { include: ["Read", "Grep", "WebFetch"] },
  },
};

/** The daemon in memory (no socket: what these answers are does not depend on the wire). */
function started() {
  const harness = dispatchHarness({ config });
  const peer = harness.peer();
  const client = {
    session: (params: ParamsOf<"toolpool/session">) => peer.call("toolpool/session", params),
    search: (params: ParamsOf<"toolpool/search">) => peer.call("toolpool/search", params),
    call: (params: ParamsOf<"toolpool/call">) => peer.call("toolpool/call", params),
    assemble: (params: ParamsOf<"toolpool/assemble">) => peer.call("toolpool/assemble", params),
    stats: () => peer.call("toolpool/stats", {}),
    request: <M extends MethodName>(method: M, params: ParamsOf<M>) => peer.call(method, params),
  };
  return { client, [Symbol.asyncDispose]: () => harness[Symbol.asyncDispose]() };
}

const toolNames = (tools: readonly unknown[]) => tools.map((tool) => ("function" in (tool as object) ? (tool as { function: { name: string } }).function.name : (tool as { name: string }).name));

describe("one view of a session", () => {
  test("toolpool/search in a profiled session names no tool outside the profile, as ToolSearch does not", async () => {
    await using daemon = started();
    const { sessionId } = await daemon.client.session({ profile: "readers", delivery: "proxy", model: "gpt-5", provider: "openai" });
    const searched = await daemon.client.search({ sessionId, query: "WebFetch" });
    expect(searched.exactName).toBeUndefined();
    expect(searched.didYouMean ?? []).toEqual([]);
    expect(searched.matches.map((match) => match.name).filter((name) => name !== "Read" && name !== "Grep")).toEqual([]);
    // The model's ToolSearch, for the same query in the same session, names neither.
    const modelSearch = await daemon.client.call({ sessionId, name: "ToolSearch", input: { query: "WebFetch" } });
    expect(modelSearch.structuredContent).toEqual({ query: "WebFetch", kind: "keyword", matches: [] });
    // Without a session the whole pool is searched: the exact name is found.
    expect((await daemon.client.search({ query: "WebFetch" })).exactName).toBe("WebFetch");
  });

  test("explain of a tool outside the session's profile: not in its tools array, not callable (the call is refused)", async () => {
    await using daemon = started();
    const { sessionId } = await daemon.client.session({ profile: "readers", delivery: "standard" });
    const assembled = await daemon.client.assemble({ sessionId, messages: [] });
    expect(toolNames(assembled.tools)).toEqual(["Grep", "Read"]);
    const explained = await daemon.client.request("toolpool/explain", { name: "Bash", sessionId });
    expect(explained).toMatchObject({ name: "Bash", session: sessionId, tool: "Bash", inToolsArray: false, callable: false });
    expect(explained.decisions.at(-1)).toEqual({ step: "profile", verdict: "blocked", reason: 'Bash is outside the session\'s tool profile "readers"' });
    const called = await daemon.client.call({ sessionId, name: "Bash", input: { command: "true" } });
    expect(called.isError).toBe(true);
    // Inside the profile: in the array and callable, as assemble says.
    expect(await daemon.client.request("toolpool/explain", { name: "Read", sessionId })).toMatchObject({ inToolsArray: true, callable: true });
  });

  test("a profiled session with toolSearch auto:N: explain's deferral is assemble's (both from the session's tools)", async () => {
    await using daemon = started();
    // The whole pool's deferred tools pass 1 % of an 80k window (800 tokens); the profile's one (WebFetch, ~350) alone does not.
    const { sessionId } = await daemon.client.session({ profile: "fetchers", toolSearch: "auto:1", contextWindow: 80_000, delivery: "native", model: "claude-sonnet-4-5" });
    const deferred = builtinTools().filter(isDeferredTool);
    expect(standardTokens(deferred, "anthropic")).toBeGreaterThan(800);
    expect(standardTokens(deferred.filter((tool) => tool.name === "WebFetch"), "anthropic")).toBeLessThan(800);
    const assembled = await daemon.client.assemble({ sessionId, messages: [] });
    const explained = await daemon.client.request("toolpool/explain", { name: "WebFetch", sessionId });
    const sentInFull = toolNames(assembled.tools).includes("WebFetch") && !assembled.deferring;
    expect({ deferring: assembled.deferring, webFetchInArray: sentInFull }).toEqual({ deferring: false, webFetchInArray: true });
    expect(explained).toMatchObject({ inToolsArray: true, callable: true, summary: "WebFetch is sent in full: this session does not defer" });
  });

  test("stats compares a profiled session's first request against its own standard request, not the whole pool's", async () => {
    await using daemon = started();
    const { sessionId } = await daemon.client.session({ profile: "fetchers", delivery: "proxy", model: "gpt-5", provider: "openai" });
    await daemon.client.assemble({ sessionId, messages: [] });
    const stats = await daemon.client.stats();
    const profileTools = builtinTools().filter((tool) => ["Read", "Grep", "WebFetch"].includes(tool.name));
    expect(stats.tokens.styles.map((style) => ({ delivery: style.delivery, sessions: style.sessions, standardTokens: style.standardTokens }))).toEqual([
      { delivery: "proxy", sessions: 1, standardTokens: standardTokens(profileTools, "openai") },
    ]);
  });
});
