import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStats } from "../../src/usage/stats-query.ts";
import { ROW_CAPS, type StoredEvent } from "../../src/usage/usage-schema.ts";
import { UsageStore } from "../../src/usage/usage-store.ts";

const call = (at: number, tool: string, durationMs: number, extra: Partial<Extract<StoredEvent, { type: "call" }>> = {}): StoredEvent => ({
  type: "call",
  at,
  workspace: "/w",
  session: "s",
  tool,
  server: null,
  durationMs,
  isError: false,
  timedOut: false,
  truncated: false,
  ...extra,
});
const search = (at: number, key: string, query: string, results: string[], workspace = "/w"): StoredEvent => ({
  type: "search",
  key,
  at,
  workspace,
  session: "s",
  kind: "keyword",
  query,
  results,
  selectMisses: 0,
  didYouMean: false,
});
const query = (since: number | null = null) => ({
  since,
  until: 10_000,
  top: 10,
  conversionWindow: 3,
  counter: { label: "estimate", estimate: true },
  parkedNow: new Map<string, number>(),
});

describe("UsageStore", () => {
  test("the file is created 0600 in a 0700 folder", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "usage-")), "state");
    const store = new UsageStore(join(dir, "usage.sqlite"));
    store.write([call(1, "Read", 1)]);
    store.close();
    expect(statSync(join(dir, "usage.sqlite")).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  test("a database of another schema version is refused, not overwritten", () => {
    const path = join(mkdtempSync(join(tmpdir(), "usage-")), "usage.sqlite");
    new UsageStore(path).close();
    const raw = new Database(path);
    raw.run("UPDATE meta SET value = '99' WHERE key = 'schema'");
    raw.close();
    expect(() => new UsageStore(path)).toThrow("has usage schema version 99; this daemon reads version 1");
  });

  test("stats: counts, conversion, zero-result queries by frequency, percentiles per tool and server, windows", async () => {
    const store = new UsageStore(":memory:");
    store.write([
      search(100, "a", "send mail", ["Mail"]),
      search(200, "b", "qqq", []),
      search(300, "c", "qqq", []),
      search(400, "d", "zzz", []),
      { type: "conversion", key: "a", tool: "Mail" },
      ...[1, 2, 3, 4, 100].map((ms, i) => call(500 + i, "Mail", ms, { server: "post", isError: i === 4, timedOut: i === 4 })),
      call(600, "Read", 7, { truncated: true }),
    ]);
    const stats = await readStats(store.db, query());
    expect(stats.searches).toEqual({
      total: 4,
      keyword: 4,
      select: 0,
      discover: 0,
      zeroResults: 3,
      zeroResultQueries: [
        { query: "qqq", count: 2 },
        { query: "zzz", count: 1 },
      ],
      conversion: { keyword: 4, converted: 1, rate: 0.25, window: 3 },
      selectMisses: 0,
      didYouMeanOffers: 0,
    });
    expect(stats.calls).toEqual({
      total: 6,
      errors: 1,
      tools: [
        { name: "Mail", count: 5, errors: 1, timeouts: 1, truncations: 0, p50Ms: 3, p99Ms: 100 },
        { name: "Read", count: 1, errors: 0, timeouts: 0, truncations: 1, p50Ms: 7, p99Ms: 7 },
      ],
      servers: [
        { name: "post", count: 5, errors: 1, timeouts: 1, truncations: 0, p50Ms: 3, p99Ms: 100 },
        { name: "builtin", count: 1, errors: 0, timeouts: 0, truncations: 1, p50Ms: 7, p99Ms: 7 },
      ],
    });
    const late = await readStats(store.db, query(350));
    expect([late.searches.total, late.searches.zeroResultQueries, late.calls.total]).toEqual([1, [{ query: "zzz", count: 1 }], 6]);
  });

  test("every table keeps at most its cap: events their newest rows, aggregates their most recently used", () => {
    const caps = { ...ROW_CAPS, calls: 3, tool_use: 2 };
    const store = new UsageStore(":memory:", caps);
    for (let i = 0; i < 10; i++) store.write([call(i, `T${i}`, i), { type: "use", at: i, workspace: "/w", tool: `T${i}`, previous: null, together: [] }]);
    expect(store.db.query("SELECT tool FROM calls ORDER BY id").all()).toEqual([{ tool: "T7" }, { tool: "T8" }, { tool: "T9" }]);
    expect(store.aggregates("/w").uses).toEqual([
      { tool: "T9", calls: 1 },
      { tool: "T8", calls: 1 },
    ]);
  });

  test("clear forgets one workspace (and only it), or everything", async () => {
    const store = new UsageStore(":memory:");
    store.write([
      search(1, "a", "mail", ["Mail"], "/one"),
      search(2, "b", "mail", ["Mail"], "/two"),
      { type: "use", at: 3, workspace: "/one", tool: "Mail", previous: "Read", together: ["Read"] },
      { type: "searchCall", at: 3, workspace: "/one", tool: "Mail", terms: ["mail"] },
      { type: "server", at: 4, server: "post", kind: "connect", latencyMs: 20, parkedMs: null },
    ]);
    expect(store.clear("/one")).toBe(5);
    expect(store.aggregates("/one")).toEqual({ uses: [], follows: [], terms: [] });
    expect((await readStats(store.db, query())).searches.total).toBe(1);
    expect((await readStats(store.db, query())).servers.map((server) => server.connects)).toEqual([1]);
    expect(store.clear(null)).toBe(2);
    expect((await readStats(store.db, query())).servers).toEqual([]);
  });
});

test("a history file someone left readable is made private again on open", () => {
  const path = join(mkdtempSync(join(tmpdir(), "usage-")), "usage.sqlite");
  writeFileSync(path, "");
  chmodSync(path, 0o644);
  new UsageStore(path).close();
  expect(statSync(path).mode & 0o777).toBe(0o600);
});

test("stats read calls in pages, giving the event loop a turn between them", async () => {
  const store = new UsageStore(":memory:");
  const rows: StoredEvent[] = Array.from({ length: 12_001 }, (_, i) => call(1, i % 2 ? "A" : "B", i % 100));
  for (let i = 0; i < rows.length; i += 1_000) store.write(rows.slice(i, i + 1_000));
  let turns = 0;
  const stats = await readStats(store.db, query(), async () => void turns++);
  expect(stats.calls.total).toBe(12_001);
  expect(stats.calls.tools.map((tool) => [tool.name, tool.count])).toEqual([["B", 6_001], ["A", 6_000]]);
  expect(turns).toBe(3);
});
