import { describe, expect, test } from "bun:test";
import { parseCompactionBlocks, renderCompactionBlock } from "../../src/assembly/compaction.ts";
import { COMPACTION_TAG } from "../../src/assembly/marker-tags.ts";
import { formatDiscoveredLine } from "../../src/assembly/discovered-line.ts";
import { compactionBlockFor, scanTranscript } from "../../src/assembly/scan-transcript.ts";
import { renderToolDiscovery } from "../../src/assembly/tool-discovery-attachment.ts";
import { anthropicCall, mcp, openaiCall } from "./fixtures.ts";

const discoveredOf = (messages: readonly unknown[]) => [...scanTranscript(messages).discovered].sort();

describe("compaction block", () => {
  test("the exact block", () => {
    expect(renderCompactionBlock(["mcp__b__x", "WebFetch", "mcp__b__x"])).toBe(
      [
        `<${COMPACTION_TAG}>`,
        'Deferred tools loaded earlier in this conversation. To see one\'s definition again, call ToolSearch with "select:<name>".',
        "WebFetch",
        "mcp__b__x",
        `</${COMPACTION_TAG}>`,
      ].join("\n"),
    );
  });

  test("nothing discovered: no block", () => {
    expect(renderCompactionBlock([])).toBeNull();
    expect(compactionBlockFor([{ role: "user", content: "hello" }])).toBeNull();
  });

  test("parse reads back what render wrote", () => {
    expect(parseCompactionBlocks(renderCompactionBlock(["a", "b"])!)).toEqual(["a", "b"]);
  });

  const anthropicHistory = [
    { role: "user", content: "File a bug and tell the team." },
    ...anthropicCall("ToolSearch", { query: "select:mcp__github__create_issue" }, [
      { type: "tool_reference", tool_name: "mcp__github__create_issue" },
    ]),
    ...anthropicCall("ToolSearch", { query: "slack" }, `Found 1 tool(s).\n\n${formatDiscoveredLine(["mcp__slack__post_message"])}`),
    { role: "user", content: renderToolDiscovery([mcp("jira", "create-ticket")], "proxy")! },
    { role: "assistant", content: "Done." },
  ];
  const openaiHistory = [
    { role: "user", content: "File a bug and tell the team." },
    ...openaiCall("ToolSearch", { query: "github" }, `Found 2 tool(s).\n\n${formatDiscoveredLine(["mcp__github__create_issue", "mcp__slack__post_message"])}`),
    { role: "user", content: [{ type: "text", text: renderToolDiscovery([mcp("jira", "create-ticket")], "proxy")! }] },
    { role: "assistant", content: "Done." },
  ];

  test.each([
    ["Anthropic", anthropicHistory, { role: "user", content: "Continue." }],
    ["OpenAI", openaiHistory, { role: "user", content: "Continue." }],
  ] as const)("round trip (%s): after older messages become a summary, nothing discovered is lost", (_format, history, next) => {
    const before = discoveredOf(history);
    expect(before).toEqual(["mcp__github__create_issue", "mcp__jira__create-ticket", "mcp__slack__post_message"]);
    const block = compactionBlockFor(history)!;
    const compacted = [{ role: "user", content: `This session continues from an earlier conversation. Summary: a bug was filed.\n\n${block}` }, next];
    expect(discoveredOf(compacted)).toEqual(before);
    // Compacting again carries the set forward a second time.
    const twice = [{ role: "user", content: `Summary of summaries.\n${compactionBlockFor(compacted)!}` }];
    expect(discoveredOf(twice)).toEqual(before);
  });
});
