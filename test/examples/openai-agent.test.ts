import { describe, expect, test } from "bun:test";
import { feature } from "bun:bundle";
import { join } from "node:path";
import { runOpenAIAgent, type ChatRequest, type ChatResponse } from "../../examples/openai-agent.ts";
import { loadScript, ScriptedModel } from "../../examples/scripted-model.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { REPO_ROOT } from "../helpers/binary.ts";
import { startExampleDaemon, toolNames } from "./fixtures.ts";

const SCRIPT = join(REPO_ROOT, "examples", "scripted", "openai.json");

async function scriptedRun(compactAtChars?: number) {
  const script = await loadScript<ChatResponse>(SCRIPT);
  const model = new ScriptedModel<ChatRequest, ChatResponse>(script);
  await using harness = await startExampleDaemon();
  const client = await ToolpoolClient.connect(harness.socketPath);
  try {
    const run = await runOpenAIAgent({
      client,
      createCompletion: async (request) => model.respond(request),
      model: "gpt-4.1-mini",
      prompts: script.prompts,
      ...(compactAtChars !== undefined && { compactAtChars }),
    });
    return { run, model };
  } finally {
    client.close();
  }
}

describe("examples/openai-agent.ts with the scripted model (proxy delivery)", () => {
  test("the same tools array on every request; ToolSearch shows the schema, ExecuteExtraTool runs Sleep in the daemon", async () => {
    const { run, model } = await scriptedRun();
    expect(model.remaining).toBe(0);
    expect(run.answers).toEqual(["Done: I waited a moment with the Sleep tool."]);
    const arrays = model.requests.map((request) => JSON.stringify(request.tools));
    expect(new Set(arrays).size).toBe(1);
    expect(toolNames(model.requests[0]!.tools).slice(-2)).toEqual(["ToolSearch", "ExecuteExtraTool"]);
    expect(model.requests[0]!.tools[0]).toMatchObject({ type: "function", function: { name: expect.any(String), parameters: { type: "object" } } });

    const searched = run.messages.find((message) => message.role === "tool" && message.tool_call_id === "call_01_search");
    expect(searched?.content).toContain("### Sleep");
    expect(searched?.content).toContain('"seconds"');
    expect(searched?.content).toContain("[toolpool discovered: ");
    const slept = run.messages.find((message) => message.role === "tool" && message.tool_call_id === "call_02_sleep");
    expect(slept?.content).toMatch(/^Waited 0\.\d s\.$/);
    // The list announcement rides along as the last user message of each request, never stored.
    expect(model.requests[0]!.messages.at(-1)?.content).toContain("<available-deferred-tools>");
    expect(run.messages.filter((message) => message.content?.includes("<available-deferred-tools>"))).toEqual([]);
  });

  test("prefetch: a proxy attachment (with schemas) follows the tool results (tiers with PREFETCH)", async () => {
    const { run } = await scriptedRun();
    const attachments = run.messages.filter((message) => message.role === "user" && message.content?.startsWith("<tool-discovery>"));
    if (feature("PREFETCH")) {
      expect(attachments).toHaveLength(1);
      expect(attachments[0]?.content).toContain("Input schema:");
      expect(attachments[0]?.content).toMatch(/\[toolpool discovered: [^\]]*\bSleep\b/);
    } else {
      expect(attachments).toEqual([]);
    }
  });

  test("compaction keeps the system message, summarizes with the block, keeps the last assistant turn", async () => {
    const plain = (await scriptedRun()).run.messages;
    const lastAssistant = plain.findLastIndex((message) => message.role === "assistant");
    const beforeLastRequest = plain.slice(0, plain.findLastIndex((message, index) => index < lastAssistant && message.role === "assistant") + 2);
    const { run, model } = await scriptedRun(JSON.stringify(beforeLastRequest).length - 1);
    expect(run.compactions).toBe(1);
    const last = model.requests.at(-1)!;
    expect(last.messages[0]?.role).toBe("system");
    expect(last.messages[1]?.content).toContain("Summary of the earlier conversation. The user asked: Wait for a moment with a tool");
    expect(last.messages[1]?.content).toMatch(/<discovered-deferred-tools>\n[^\n]*\n(.*\n)*Sleep\n/);
    expect(last.messages[2]).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_02_sleep" }] });
    expect(run.answers).toEqual(["Done: I waited a moment with the Sleep tool."]);
  });
});
