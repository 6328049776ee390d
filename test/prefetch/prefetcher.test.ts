import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { MAX_PREFETCH_SESSIONS, Prefetcher, type PrefetchSession } from "../../src/prefetch/prefetcher.ts";
import { SuggestedSet } from "../../src/prefetch/suggested-set.ts";
import { lastUserText, MAX_QUERY_CHARS } from "../../src/prefetch/user-query.ts";
import { SearchSync } from "../../src/core/search-sync.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";

function deferred(name: string, description: string, server?: string): Tool {
  const tool = buildTool({
    name,
    description,
    inputSchema: z.strictObject({ value: z.string().optional() }),
    shouldDefer: true,
    call: async () => textResult(name),
  });
  return server ? { ...tool, isMcp: true, mcpInfo: { server, tool: name } } : tool;
}

const tools = [
  deferred("WeatherForecast", "Weather forecast for a city: temperature and rain."),
  deferred("WeatherAlerts", "Severe weather alerts and warnings for a region."),
  deferred("WeatherHistory", "Historical weather records for a city."),
  deferred("WeatherRadar", "Weather radar images for a location."),
  deferred("mcp__cal__create_event", "Create a calendar event with a title and time.", "cal"),
  buildTool({ name: "Read", description: "Read a weather file from disk.", inputSchema: z.strictObject({}), call: async () => textResult("") }),
];

function setup(warm: string[] = []) {
  const sync = new SearchSync();
  sync.sync(tools);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const prefetcher = new Prefetcher({ engine: sync.index, lookup: (name) => byName.get(name), warmServer: (server) => warm.push(server) });
  const session: PrefetchSession = { id: "s1", delivery: "proxy", enabled: true, discovered: new Set() };
  return { prefetcher, session };
}

const user = (content: unknown) => ({ role: "user", content });
const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }] });

describe("prefetch", () => {
  test("turn zero (no assistant turn begun, no turn start) gives nothing", () => {
    const { prefetcher, session } = setup();
    expect(prefetcher.prefetch(session, [user("weather forecast for Paris")])).toMatchObject({ skipped: "turn_zero", suggestions: [] });
  });

  test("turn start precomputes; prefetch answers the precomputed top 3 deferred tools", () => {
    const { prefetcher, session } = setup();
    const messages = [user("what is the weather forecast for Paris")];
    prefetcher.turnStarted(session, messages);
    const result = prefetcher.prefetch(session, messages);
    expect(result.precomputed).toBe(true);
    expect(result.suggestions).toHaveLength(3);
    expect(result.suggestions[0]?.name).toBe("WeatherForecast");
    expect(result.suggestions.map((s) => s.name)).not.toContain("Read");
    expect(result.attachment).toContain("<tool-discovery>");
    expect(result.attachment).toContain("[toolpool discovered: ");
  });

  test("a suggested tool is not suggested again, nor a discovered one", () => {
    const { prefetcher, session } = setup();
    const messages = [user("weather forecast"), assistant("ok")];
    const first = prefetcher.prefetch(session, messages).suggestions.map((s) => s.name);
    const second = prefetcher.prefetch(session, [...messages, user("weather forecast again")]).suggestions.map((s) => s.name);
    expect(second.filter((name) => first.includes(name))).toEqual([]);
    expect(second.length).toBeGreaterThan(0);
    expect(new Set([...first, ...second]).size).toBe(first.length + second.length);
    const discoveredSession = { ...session, id: "s2", discovered: new Set(["WeatherForecast"]) };
    expect(prefetcher.prefetch(discoveredSession, messages).suggestions.map((s) => s.name)).not.toContain("WeatherForecast");
  });

  test("tool results are skipped; the query is the last real user text, at most 500 characters", () => {
    const long = "calendar ".repeat(100);
    const messages = [
      user(long),
      assistant("calling"),
      user([{ type: "tool_result", tool_use_id: "x", content: "weather weather weather" }]),
      user([{ type: "text", text: "<tool-discovery>\nold\n</tool-discovery>" }]),
    ];
    expect(lastUserText(messages)).toBe(long.trim().slice(0, MAX_QUERY_CHARS));
  });

  test("a predicted tool of a lazy server warms that server", () => {
    const warmed: string[] = [];
    const { prefetcher, session } = setup(warmed);
    prefetcher.prefetch(session, [user("create a calendar event for lunch"), assistant("sure")]);
    expect(warmed).toEqual(["cal"]);
  });

  test("a disabled session gets nothing", () => {
    const { prefetcher, session } = setup();
    expect(prefetcher.prefetch({ ...session, enabled: false }, [user("weather"), assistant("x")])).toMatchObject({ skipped: "disabled" });
  });

  test("the suggested set trims oldest-first to 400 once past 500", () => {
    const set = new SuggestedSet();
    for (let index = 0; index < 501; index++) set.add(`t${index}`);
    expect(set.size).toBe(400);
    expect(set.has("t100")).toBe(false);
    expect(set.has("t101")).toBe(true);
    expect(set.has("t500")).toBe(true);
  });
  test("per-session state is bounded: sessions that come and go (and are never forgotten) do not grow it forever", () => {
    const { prefetcher } = setup();
    const messages = [user("weather forecast"), assistant("ok")];
    const sessions = MAX_PREFETCH_SESSIONS + 50;
    for (let index = 0; index < sessions; index++) {
      prefetcher.turnStarted({ id: `s${index}`, delivery: "proxy", enabled: true, discovered: new Set() }, messages);
    }
    expect(prefetcher.sessionCount).toBe(MAX_PREFETCH_SESSIONS);
    // The least recently used go first; the newest keep what they were suggested.
    expect(prefetcher.suggestedNames("s0")).toEqual([]);
    expect(prefetcher.suggestedNames(`s${sessions - 1}`)).toHaveLength(3);
  });
});
