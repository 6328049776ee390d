import { describe, expect, test } from "bun:test";
import { feature } from "bun:bundle";
import { join } from "node:path";
import { runAnthropicAgent, type Message, type ModelRequest, type ModelResponse } from "../../examples/anthropic-agent.ts";
import { loadScript, ScriptedModel } from "../../examples/scripted-model.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { REPO_ROOT } from "../helpers/binary.ts";
import { startExampleDaemon, toolNames } from "./fixtures.ts";

const SCRIPT = join(REPO_ROOT, "examples", "scripted", "anthropic.json");
const MID_SCRIPT = join(REPO_ROOT, "examples", "scripted", "anthropic-mid-conversation.json");

async function scriptedRun(compactAtChars?: number, delivery?: "mid-conversation") {
  const script = await loadScript<ModelResponse>(delivery ? MID_SCRIPT : SCRIPT);
  const model = new ScriptedModel<ModelRequest, ModelResponse>(script);
  const harness = await startExampleDaemon();
  const client = await ToolpoolClient.connect(harness.socketPath);
  const run = await runAnthropicAgent({
    client,
    createMessage: async (request) => model.respond(request),
    model: "claude-sonnet-4-5",
    prompts: script.prompts,
    ...(compactAtChars !== undefined && { compactAtChars }),
    ...(delivery && { delivery }),
  });
  client.close();
  await harness.daemon.stop("test finished");
  return { run, model };
}

function blocksOf(message: Message | undefined): string[] {
  return (message?.content ?? []).map((block) => (block.type === "text" && String(block.text).startsWith("<") ? `text:${String(block.text).split(">")[0]}>` : block.type));
}

describe("examples/anthropic-agent.ts with the scripted model (native delivery)", () => {
  test("ToolSearch loads Sleep, the next tools array carries it with defer_loading, the call runs in the daemon", async () => {
    const { run, model } = await scriptedRun();
    expect(model.remaining).toBe(0);
    expect(run.answers).toEqual(["Done: I waited a moment with the Sleep tool."]);
    const [first, second, third] = model.requests;
    // Request 1: core tools + ToolSearch, the beta header, the deferred list announced in the last user message.
    expect(toolNames(first!.tools).slice(-1)).toEqual(["ToolSearch"]);
    expect(toolNames(first!.tools)).not.toContain("Sleep");
    expect(first!.betas).toEqual(["advanced-tool-use-2025-11-20"]);
    expect(String(first!.messages[0]!.content.at(-1)?.text)).toContain("<available-deferred-tools>");
    // Request 2: Sleep discovered by the tool_reference in ToolSearch's result, sent with defer_loading.
    expect(second!.tools.at(-1)).toMatchObject({ name: "Sleep", defer_loading: true });
    const searchResult = second!.messages[2]!.content[0];
    expect(searchResult).toMatchObject({ type: "tool_result", tool_use_id: "toolu_01_search" });
    expect(searchResult!.content).toContainEqual({ type: "tool_reference", tool_name: "Sleep" });
    // Request 3: Sleep ran in the daemon; its result is in the transcript as the daemon formatted it.
    expect(third!.messages[4]!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_02_sleep", content: [{ type: "text", text: expect.stringMatching(/^Waited 0\.\d s\.$/) }] });
    // The announcement is sent with each request but never stored in the transcript (list style).
    expect(run.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
    expect(blocksOf(run.messages[0])).toEqual(["text"]);
  });

  test("prefetch between turns: the discovery attachment goes into the next user message (tiers with PREFETCH)", async () => {
    const { model } = await scriptedRun();
    const afterFirstStep = model.requests[1]!.messages[2];
    if (feature("PREFETCH")) {
      // The prompt asks to wait, so Sleep is suggested (native delivery: names only, load with select:).
      expect(blocksOf(afterFirstStep)).toContain("text:<tool-discovery>");
      expect(JSON.stringify(afterFirstStep)).toContain("select:Sleep");
    } else {
      expect(blocksOf(afterFirstStep)).not.toContain("text:<tool-discovery>");
    }
  });

  test("compaction: older messages become a summary with the discovered-tools block, and Sleep stays in the tools array", async () => {
    // Past the size the transcript has before the third request, not before the second.
    const plain = (await scriptedRun()).run.messages;
    const threshold = JSON.stringify(plain.slice(0, 5)).length - 1;
    expect(JSON.stringify(plain.slice(0, 3)).length).toBeLessThan(threshold);
    const { run, model } = await scriptedRun(threshold);
    expect(run.compactions).toBe(1);
    const last = model.requests.at(-1)!;
    const summary = String(last.messages[0]!.content[0]!.text);
    expect(summary).toContain("Summary of the earlier conversation. The user asked: Wait for a moment with a tool");
    expect(summary).toContain("<discovered-deferred-tools>\nDeferred tools loaded earlier in this conversation.");
    expect(summary).toContain("\nSleep\n</discovered-deferred-tools>");
    // The kept tail starts with the assistant's Sleep call, and the array still defines Sleep.
    expect(last.messages[1]).toMatchObject({ role: "assistant", content: [{ type: "tool_use", name: "Sleep" }] });
    expect(last.tools.at(-1)).toMatchObject({ name: "Sleep", defer_loading: true });
    expect(run.answers).toEqual(["Done: I waited a moment with the Sleep tool."]);
  });
});

describe("examples/anthropic-agent.ts with the scripted model (mid-conversation delivery)", () => {
  test("the tools array never changes; Sleep arrives in a kept system message of a tool_addition block; every request's prefix is the previous request", async () => {
    const { run, model } = await scriptedRun(undefined, "mid-conversation");
    expect(model.remaining).toBe(0);
    expect(run.answers).toEqual(["Done: I waited a moment with the Sleep tool."]);
    const [first, second, third] = model.requests;
    expect(first!.tools.find((tool) => (tool as { name: string }).name === "Sleep")).toMatchObject({ defer_loading: true });
    expect(JSON.stringify(second!.tools)).toBe(JSON.stringify(first!.tools));
    expect(JSON.stringify(third!.tools)).toBe(JSON.stringify(first!.tools));
    expect(first!.betas).toEqual(["advanced-tool-use-2025-11-20", "mid-conversation-tool-changes-2026-07-01"]);
    // ToolSearch answered in text; the harness inserted the daemon's message after the result.
    const searchResult = second!.messages[2]!.content[0];
    expect(JSON.stringify(searchResult)).not.toContain("tool_reference");
    expect(second!.messages[3]).toEqual({ role: "system", content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "Sleep" } }] });
    expect(third!.messages[5]!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_02_sleep" });
    expect(run.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "system", "assistant", "user", "assistant"]);
    // Messages already sent reach the next request byte for byte, but for the last user message,
    // which carries this request's (not kept) list announcement.
    for (const [previous, next] of [[second!, third!]] as const) {
      const kept = previous.messages.length - 2;
      expect(next.messages.slice(0, kept).map((message) => JSON.stringify(message))).toEqual(previous.messages.slice(0, kept).map((message) => JSON.stringify(message)));
    }
  });
});
