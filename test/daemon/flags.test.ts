import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { dispatchHarness, type MemoryPeer } from "../helpers/dispatch-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";

const lookup = buildTool({
  name: "LookupThing",
  description: "Look up a thing by its id.",
  inputSchema: z.strictObject({ id: z.string() }),
  shouldDefer: true,
  call: async ({ id }) => textResult(`thing ${id}`),
});

async function result(client: MemoryPeer, method: string, params: Record<string, unknown> = {}) {
  const response = await client.request(method, params);
  if (response.error) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

async function until<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 3_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await Bun.sleep(25);
  }
}

function payload(features: Record<string, unknown>): string {
  return JSON.stringify({ features: Object.fromEntries(Object.entries(features).map(([key, value]) => [key, { defaultValue: value }])) });
}

describe("runtime flags in the daemon", () => {
  test("no flags configured: embedded defaults, and toolpool/flags says so", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool] });
    using client = harness.peer();
    const report = (await result(client, "toolpool/flags")) as { flags: { key: string; value: unknown; source: string }[] };
    expect(report.flags.find((flag) => flag.key === "disabled_tools")).toMatchObject({ value: [], source: "default" });
    expect(report.flags.every((flag) => flag.source === "default")).toBe(true);
  });

  test("disabled_tools flipped in the features file: refused at once in a running session, absent from new sessions only", async () => {
    const file = join(tempSocketDir(), "features.json");
    await Bun.write(file, payload({}));
    await using harness = dispatchHarness({ builtins: [echoTool, lookup], config: { flags: { file } } });
    using client = harness.peer();
    const running = (await result(client, "toolpool/session", { delivery: "standard" })).sessionId as string;
    const before = await result(client, "toolpool/assemble", { sessionId: running, messages: [] });
    expect((before.tools as { name: string }[]).map((tool) => tool.name)).toEqual(["Echo", "LookupThing"]);

    await Bun.write(file, payload({ disabled_tools: ["Echo"] }));
    const refused = await until(
      () => result(client, "toolpool/call", { sessionId: running, name: "Echo", input: { text: "hi" } }),
      (value) => value.isError === true,
    );
    expect(refused.content).toEqual([{ type: "text", text: 'Echo is switched off: disabled by the runtime flag "disabled_tools"' }]);
    const same = await result(client, "toolpool/assemble", { sessionId: running, messages: [] });
    expect(JSON.stringify(same.tools)).toBe(JSON.stringify(before.tools));

    const fresh = (await result(client, "toolpool/session", { delivery: "standard" })).sessionId as string;
    const after = await result(client, "toolpool/assemble", { sessionId: fresh, messages: [] });
    expect((after.tools as { name: string }[]).map((tool) => tool.name)).toEqual(["LookupThing"]);
  });

  test("deferred_tools_delta switches list to delta announcements for new sessions", async () => {
    const file = join(tempSocketDir(), "features.json");
    await Bun.write(file, payload({ deferred_tools_delta: false }));
    await using harness = dispatchHarness({ builtins: [echoTool, lookup], config: { flags: { file } } });
    using client = harness.peer();
    const listed = await result(client, "toolpool/session", { delivery: "proxy" });
    expect((listed.settings as { announcements: string }).announcements).toBe("list");
    await Bun.write(file, payload({ deferred_tools_delta: true }));
    const delta = await until(
      () => result(client, "toolpool/session", { delivery: "proxy" }),
      (value) => (value.settings as { announcements: string }).announcements === "delta",
    );
    const assembled = await result(client, "toolpool/assemble", { sessionId: delta.sessionId, messages: [] });
    expect((assembled.announcement as { style: string; text: string }).style).toBe("delta");
    const old = await result(client, "toolpool/assemble", { sessionId: listed.sessionId, messages: [] });
    expect((old.announcement as { style: string }).style).toBe("list");
  });

  test("search_compact_answers flipped mid-session (on, then to a wrong type): open sessions answer and describe ToolSearch as before, byte for byte; new sessions follow the flag", async () => {
    const file = join(tempSocketDir(), "features.json");
    await Bun.write(file, payload({}));
    const twin = buildTool({ name: "LookupOther", description: "Look up another thing by its id.", inputSchema: z.strictObject({ id: z.string() }), shouldDefer: true, call: async ({ id }) => textResult(`other ${id}`) });
    await using harness = dispatchHarness({ builtins: [echoTool, lookup, twin], config: { flags: { file } } });
    using client = harness.peer();
    const open = async (delivery: string) => (await result(client, "toolpool/session", { delivery, model: "claude-sonnet-4-5" })).sessionId as string;
    const look = async (sessionId: string) => ({
      tools: JSON.stringify((await result(client, "toolpool/assemble", { sessionId, messages: [] })).tools),
      answer: JSON.stringify(await result(client, "toolpool/call", { sessionId, name: "ToolSearch", input: { query: "look up thing id" } })),
    });
    const running = { proxy: await open("proxy"), native: await open("native") };
    const before = { proxy: await look(running.proxy), native: await look(running.native) };
    expect(before.proxy.answer).not.toContain('"compact":true');

    await Bun.write(file, payload({ search_compact_answers: true }));
    const fresh = await until(
      async () => look(await open("proxy")),
      (value) => value.answer.includes('"compact":true'),
    );
    expect(fresh.tools).not.toBe(before.proxy.tools);
    expect({ proxy: await look(running.proxy), native: await look(running.native) }).toEqual(before);
    // Re-opened by id, a session keeps what it opened with.
    await result(client, "toolpool/session", { sessionId: running.proxy, delivery: "proxy" });
    expect(await look(running.proxy)).toEqual(before.proxy);

    // A value of the wrong type is ignored for the default (false), with a warning, not a half-compact session.
    await Bun.write(file, JSON.stringify({ features: { search_compact_answers: { defaultValue: "yes" } } }));
    await until(async () => look(await open("proxy")), (value) => !value.answer.includes('"compact":true'));
    expect({ proxy: await look(running.proxy), native: await look(running.native) }).toEqual(before);
  });
});
