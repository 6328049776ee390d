import { describe, expect, test } from "bun:test";
import { feature } from "bun:bundle";
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { dispatchHarness, type MemoryPeer } from "../helpers/dispatch-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";

const translate = buildTool({
  name: "TranslateText",
  description: "Translate text from one language into another language.",
  inputSchema: z.strictObject({ text: z.string(), target: z.string() }),
  shouldDefer: true,
  call: async ({ text, target }) => textResult(`[${target}] ${text}`),
});

async function result(client: MemoryPeer, method: string, params: Record<string, unknown>) {
  const response = await client.request(method, params);
  if (response.error) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

describe("prefetch over the socket", () => {
  if (feature("PREFETCH")) {
    test("a tool outside the session's profile is never suggested", async () => {
      await using harness = dispatchHarness({ builtins: [echoTool, translate], config: { profiles: { echoOnly: { include: ["Echo"] } } } });
      using client = harness.peer();
      const messages = [{ role: "user", content: "please translate this sentence into French" }];
      const prefetch = async (sessionId: unknown) => {
        client.send({ jsonrpc: "2.0", method: "toolpool/turnStarted", params: { sessionId, messages } });
        return result(client, "toolpool/prefetch", { sessionId, messages });
      };
      const inside = await result(client, "toolpool/session", { delivery: "proxy", model: "gpt-5", profile: "echoOnly" });
      expect(await prefetch(inside.sessionId)).toMatchObject({ precomputed: true, skipped: "nothing_new", suggestions: [] });
      const whole = await result(client, "toolpool/session", { delivery: "proxy", model: "gpt-5" });
      expect(await prefetch(whole.sessionId)).toMatchObject({ precomputed: true, suggestions: [{ name: "TranslateText" }] });
    });

    test("turn start, then prefetch; in proxy the suggested tool runs through ExecuteExtraTool", async () => {
      await using harness = dispatchHarness({ builtins: [echoTool, translate] });
      using client = harness.peer();
      const { sessionId } = await result(client, "toolpool/session", { delivery: "proxy", model: "gpt-5" });
      const messages = [{ role: "user", content: "please translate this sentence into French" }];
      client.send({ jsonrpc: "2.0", method: "toolpool/turnStarted", params: { sessionId, messages } });
      const prefetched = await result(client, "toolpool/prefetch", { sessionId, messages });
      expect(prefetched).toMatchObject({ precomputed: true, suggestions: [{ name: "TranslateText" }] });
      expect(prefetched.attachment).toContain('"target"');
      const ran = await result(client, "toolpool/call", {
        sessionId,
        name: "ExecuteExtraTool",
        input: { tool_name: "TranslateText", params: { text: "hello", target: "fr" } },
      });
      expect(ran).toMatchObject({ isError: false, content: [{ type: "text", text: "[fr] hello" }] });
      const again = await result(client, "toolpool/prefetch", { sessionId, messages: [...messages, { role: "assistant", content: "done" }] });
      expect(again).toMatchObject({ suggestions: [], skipped: "nothing_new" });
    });

    test("a session can switch prefetch off", async () => {
      await using harness = dispatchHarness({ builtins: [echoTool, translate] });
      using client = harness.peer();
      const { sessionId } = await result(client, "toolpool/session", { delivery: "proxy", prefetch: false });
      const messages = [{ role: "user", content: "translate" }, { role: "assistant", content: "ok" }];
      expect(await result(client, "toolpool/prefetch", { sessionId, messages })).toMatchObject({ skipped: "disabled", suggestions: [] });
    });
  } else {
    test("a tier without PREFETCH has no prefetch methods", async () => {
      await using harness = dispatchHarness({ builtins: [echoTool, translate] });
      using client = harness.peer();
      expect((await client.request("toolpool/prefetch", { messages: [] })).error).toMatchObject({ code: -32601 });
    });
  }
});
