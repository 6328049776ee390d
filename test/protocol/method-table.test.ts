/**
 * The method table types both ends. The `@ts-expect-error` lines are the test: `tsc --noEmit`
 * (part of `npm test`) fails if a handler could return a field its result type lacks, return the
 * wrong type, or a client could read a field a result does not have.
 */
import { describe, expect, test } from "bun:test";
import type { Dispatcher } from "../../src/daemon/dispatcher.ts";
import type { ToolpoolClient } from "../../src/client/client.ts";
import { METHOD_PARAMS, type MethodName } from "../../src/protocol/method-table.ts";
import { Method } from "../../src/protocol/method-names.ts";
import type { ToolSummary } from "../../src/protocol/admin-results.ts";

const summary = {
  name: "Read",
  description: "Reads a file.",
  source: "builtin" as const,
  deferred: false,
  enabled: true,
  readOnly: true,
  concurrencySafe: true,
  destructive: false,
  openWorld: false,
  alwaysLoad: false,
};

export function handlerTypes(dispatcher: Dispatcher): void {
  // A handler returning exactly its result type compiles.
  dispatcher.register(Method.Shutdown, () => ({ stopping: true }));
  // @ts-expect-error — a field `toolpool/shutdown`'s result type lacks.
  dispatcher.register(Method.Shutdown, () => ({ stopping: true, reason: "x" }));
  // @ts-expect-error — the wrong type for a field.
  dispatcher.register(Method.CronAck, () => ({ acked: ["f1"] }));
  // @ts-expect-error — a nested field the result type lacks (a tool summary's), caught at the leaf.
  dispatcher.register(Method.Tools, () => ({ tools: [{ ...summary, secret: "x" }], collisions: [] }));
  // @ts-expect-error — deeper still: inside an array inside an object inside the result.
  dispatcher.register(Method.Tools, () => ({ tools: [], collisions: [{ name: "a", kept: "b", dropped: [], why: "x" }] }));
  // Exactly the declared nested shape compiles; so does a result type with an index signature.
  dispatcher.register(Method.Tools, () => ({ tools: [summary], collisions: [{ name: "a", kept: "b", dropped: ["c"] }] }));
  dispatcher.register(Method.Search, () => ({ kind: "keyword" as const, matches: [], listed: true }));
  // Params are the schema's output: defaults applied, so `messages` is always there.
  dispatcher.register(Method.Compact, (params) => ({ sessionId: "s", block: null, discovered: params.messages.map(String) }));
}

export async function clientTypes(client: ToolpoolClient): Promise<void> {
  const status = await client.request(Method.Status);
  const tier: string = status.tier;
  // @ts-expect-error — StatusResult has no such field: a drift would be caught here.
  const missing = status.notAField;
  // @ts-expect-error — params are checked too: `toolpool/search` takes a string query.
  await client.request(Method.Search, { query: 42 });
  void tier;
  void missing;
}

describe("the method table", () => {
  test("a tool summary as toolpool/tools returns it has exactly ToolSummary's fields (enabled included)", () => {
    const declared: Required<Omit<ToolSummary, "server" | "stale" | "changed" | "needsAuth">> = summary;
    expect(Object.keys(declared).sort()).toEqual(["alwaysLoad", "concurrencySafe", "deferred", "description", "destructive", "enabled", "name", "openWorld", "readOnly", "source"]);
  });

  test("every request method the daemon names has a params schema in the table", () => {
    // The daemon's own notifications to clients have no params schema: it sends them, never receives them.
    const sentOnly = new Set<string>([Method.CronFired, Method.Question, Method.QuestionWithdrawn]);
    const requestMethods = Object.values(Method).filter((name) => !name.startsWith("notifications/") && !sentOnly.has(name));
    expect(requestMethods.filter((name) => !(name in METHOD_PARAMS)).sort()).toEqual([]);
    for (const name of Object.keys(METHOD_PARAMS) as MethodName[]) expect(typeof METHOD_PARAMS[name].safeParse).toBe("function");
  });
});
