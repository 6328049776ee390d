import { describe, expect, test } from "bun:test";
import { feature } from "bun:bundle";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { dispatchHarness, type MemoryPeer } from "../helpers/dispatch-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";

const deferred = (name: string, description: string) =>
  buildTool({ name, description, inputSchema: z.strictObject({ text: z.string() }), shouldDefer: true, call: async ({ text }) => textResult(`${name}: ${text}`) });
const mail = deferred("SendMail", "Send a message by email to a person.");
const chat = deferred("SendChat", "Send a message to a person in the team chat.");
const translate = deferred("TranslateText", "Translate text into another language.");
const builtins = [echoTool, mail, chat, translate];

async function result(client: MemoryPeer, method: string, params: Record<string, unknown> = {}) {
  const response = await client.request(method, params);
  if (response.error) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

function workspaces(): [string, string] {
  const root = realpathSync(tempSocketDir());
  const pair: [string, string] = [join(root, "one"), join(root, "two")];
  for (const dir of pair) mkdirSync(dir);
  return pair;
}

const open = async (client: MemoryPeer, workspace: string) =>
  (await result(client, "toolpool/session", { delivery: "proxy", model: "gpt-5", provider: "openai", format: "openai", workspaceRoots: [workspace] })).sessionId as string;
const names = (assembled: Record<string, unknown>) => (assembled.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
const search = async (client: MemoryPeer, sessionId: string, query: string) =>
  ((await result(client, "toolpool/call", { sessionId, name: "ToolSearch", input: { query } })).structuredContent as { matches: string[]; already_loaded?: string[] });
const run = async (client: MemoryPeer, sessionId: string, tool: string) =>
  result(client, "toolpool/call", { sessionId, name: "ExecuteExtraTool", input: { tool_name: tool, params: { text: "hi" } } });

/** A session of `workspace` that searches `query` and then calls `tool`, `times` times. */
async function use(client: MemoryPeer, workspace: string, query: string, tool: string, times: number): Promise<string> {
  const sessionId = await open(client, workspace);
  for (let i = 0; i < times; i++) {
    await search(client, sessionId, query);
    expect((await run(client, sessionId, tool)).isError).toBe(false);
  }
  return sessionId;
}

function featuresFile(values: Record<string, unknown>): string {
  const file = join(tempSocketDir(), "features.json");
  writeFileSync(file, JSON.stringify({ features: Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { defaultValue: value }])) }));
  return file;
}

describe("ranking that learns from use (in-process daemon, real socket)", () => {
  test("a tool this workspace reaches for ranks first for a matching query; unrelated queries and other workspaces are untouched", async () => {
    const [one, two] = workspaces();
    await using harness = dispatchHarness({ builtins, config: { flags: { file: featuresFile({ usage_promoted_tools: 0 }) } } });
    using client = harness.peer();
    const before = await search(client, await open(client, one), "send a message to a person");
    expect(before.matches).toEqual(["SendChat", "SendMail"]);
    await use(client, one, "send a message to alice", "SendMail", 2);
    const fresh = await open(client, one);
    expect((await search(client, fresh, "send a message to a person")).matches).toEqual(["SendMail", "SendChat"]);
    // Only tools that matched move: the learned tool is not brought into an unrelated answer.
    expect((await search(client, fresh, "translate into french")).matches).toEqual(["TranslateText"]);
    expect((await search(client, await open(client, two), "send a message to a person")).matches).toEqual(["SendChat", "SendMail"]);
  });

  test("usage_learning off: the same history changes nothing", async () => {
    const [one] = workspaces();
    await using harness = dispatchHarness({ builtins, config: { flags: { file: featuresFile({ usage_promoted_tools: 0, usage_learning: false }) } } });
    using client = harness.peer();
    await use(client, one, "send a message to alice", "SendMail", 2);
    expect((await search(client, await open(client, one), "send a message to a person")).matches).toEqual(["SendChat", "SendMail"]);
  });

  test("the workspace's most used deferred tools join the core set of its new sessions only, decided at open", async () => {
    const [one, two] = workspaces();
    await using harness = dispatchHarness({ builtins });
    using client = harness.peer();
    const first = await use(client, one, "translate text", "TranslateText", 3);
    const firstArray = names(await result(client, "toolpool/assemble", { sessionId: first, messages: [] }));
    expect(firstArray).toEqual(["Echo", "ToolSearch", "ExecuteExtraTool"]);

    const next = await open(client, one);
    const assembled = await result(client, "toolpool/assemble", { sessionId: next, messages: [] });
    expect(names(assembled)).toEqual(["Echo", "TranslateText", "ToolSearch", "ExecuteExtraTool"]);
    expect((assembled.announcement as { text: string }).text).not.toContain("TranslateText");
    expect((await search(client, next, "select:TranslateText")).already_loaded).toEqual(["TranslateText"]);
    expect((await result(client, "toolpool/call", { sessionId: next, name: "TranslateText", input: { text: "x" } })).isError).toBe(false);
    // Through ExecuteExtraTool, a promoted tool is a core tool: the model is told to call it directly.
    expect(JSON.stringify((await run(client, next, "TranslateText")).content)).toContain("directly");
    // Decided once: more use does not reshape an open session's array.
    await use(client, one, "send mail", "SendMail", 3);
    expect(names(await result(client, "toolpool/assemble", { sessionId: next, messages: [] }))).toEqual(names(assembled));
    expect(names(await result(client, "toolpool/assemble", { sessionId: first, messages: [] }))).toEqual(firstArray);
    // Another workspace has its own history.
    expect(names(await result(client, "toolpool/assemble", { sessionId: await open(client, two), messages: [] }))).toEqual(firstArray);
  });

  test("a tool the operator defers always (config defer) is never promoted, however much the workspace uses it; the next most used is", async () => {
    // Attack: the workspace's habits put an operator's `defer: "always"` tool in every new session's array.
    const [one] = workspaces();
    await using harness = dispatchHarness({ builtins, config: { defer: { TranslateText: "always" } } });
    using client = harness.peer();
    await use(client, one, "translate text", "TranslateText", 3);
    await use(client, one, "send mail", "SendMail", 3);
    expect(names(await result(client, "toolpool/assemble", { sessionId: await open(client, one), messages: [] }))).toEqual(["Echo", "SendMail", "ToolSearch", "ExecuteExtraTool"]);
  });

  test("usage_promoted_tools = 0 promotes nothing", async () => {
    const [one] = workspaces();
    await using harness = dispatchHarness({ builtins, config: { flags: { file: featuresFile({ usage_promoted_tools: 0 }) } } });
    using client = harness.peer();
    await use(client, one, "translate text", "TranslateText", 3);
    expect(names(await result(client, "toolpool/assemble", { sessionId: await open(client, one), messages: [] }))).toEqual(["Echo", "ToolSearch", "ExecuteExtraTool"]);
  });

  test("the history survives a daemon restart (same file)", async () => {
    const [one] = workspaces();
    const dir = tempSocketDir();
    const usageDatabasePath = join(dir, "usage.sqlite");
    {
      await using harness = dispatchHarness({ builtins, usageDatabasePath });
      using client = harness.peer();
      await use(client, one, "translate text", "TranslateText", 3);
    }
    await using harness = dispatchHarness({ builtins, usageDatabasePath });
    using client = harness.peer();
    expect(names(await result(client, "toolpool/assemble", { sessionId: await open(client, one), messages: [] }))).toContain("TranslateText");
  });

  if (feature("PREFETCH")) {
    test("prefetch suggests the tool that usually follows the one just called", async () => {
      const [one] = workspaces();
      await using harness = dispatchHarness({ builtins, config: { flags: { file: featuresFile({ usage_promoted_tools: 0 }) } } });
      using client = harness.peer();
      for (let i = 0; i < 2; i++) {
        const sessionId = await open(client, one);
        await search(client, sessionId, "select:TranslateText,SendMail");
        await run(client, sessionId, "TranslateText");
        await run(client, sessionId, "SendMail");
      }
      const sessionId = await open(client, one);
      await search(client, sessionId, "select:TranslateText");
      await run(client, sessionId, "TranslateText");
      const messages = [{ role: "user", content: "now what about tomorrow" }, { role: "assistant", content: "ok" }];
      const prefetched = await result(client, "toolpool/prefetch", { sessionId, messages });
      expect((prefetched.suggestions as { name: string }[]).map((suggestion) => suggestion.name)).toEqual(["SendMail"]);
      // …and whether it was later called is counted.
      await run(client, sessionId, "SendMail");
      const stats = await result(client, "toolpool/stats");
      expect(stats.prefetch).toEqual({ suggestions: 1, laterCalled: 1, rate: 1 });
    });
  }
});
