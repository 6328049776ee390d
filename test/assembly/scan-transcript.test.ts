import { describe, expect, test } from "bun:test";
import { scanTranscript } from "../../src/assembly/scan-transcript.ts";
import { formatDiscoveredLine } from "../../src/assembly/discovered-line.ts";
import { renderToolDiscovery } from "../../src/assembly/tool-discovery-attachment.ts";
import { renderCompactionBlock } from "../../src/assembly/compaction.ts";
import { computeDelta, emptyAnnouncedState } from "../../src/assembly/announcements.ts";
import { anthropicCall, mcp, openaiCall } from "./fixtures.ts";

const discovered = (messages: readonly unknown[], system?: unknown) => [...scanTranscript(messages, { system }).discovered].sort();
const proxySearchText = (found: string[]) => `Found ${found.length} tool(s).\n\n### ${found[0]}\n…\n\n${formatDiscoveredLine(found)}`;
const attachment = renderToolDiscovery([mcp("slack", "post_message")], "proxy")!;
const compaction = renderCompactionBlock(["mcp__jira__create-ticket", "WebFetch"])!;

describe("the discovered set, from every source", () => {
  test.each([
    [
      "tool_reference blocks in a tool result (Anthropic)",
      anthropicCall("ToolSearch", { query: "github" }, [
        { type: "text", text: "Loaded 2 tool(s)." },
        { type: "tool_reference", tool_name: "mcp__github__create_issue" },
        { type: "tool_reference", tool_name: "mcp__github__get_issue" },
      ]),
      ["mcp__github__create_issue", "mcp__github__get_issue"],
    ],
    [
      "tool_reference blocks count whichever tool returned them",
      anthropicCall("SomethingElse", {}, [{ type: "tool_reference", tool_name: "WebFetch" }]),
      ["WebFetch"],
    ],
    [
      "a proxy ToolSearch text result (Anthropic, string content)",
      anthropicCall("ToolSearch", { query: "issue" }, proxySearchText(["mcp__github__create_issue"])),
      ["mcp__github__create_issue"],
    ],
    [
      "a proxy ToolSearch text result (Anthropic, text blocks)",
      anthropicCall("ToolSearch", { query: "issue" }, [{ type: "text", text: proxySearchText(["mcp__github__get_issue", "WebFetch"]) }]),
      ["WebFetch", "mcp__github__get_issue"],
    ],
    [
      "a proxy ToolSearch text result (OpenAI tool message)",
      openaiCall("ToolSearch", { query: "issue" }, proxySearchText(["mcp__github__create_issue"])),
      ["mcp__github__create_issue"],
    ],
    [
      "a discovered line in some other tool's output discovers nothing (Anthropic)",
      anthropicCall("WebFetch", { target: "x" }, formatDiscoveredLine(["mcp__evil__tool"])),
      [],
    ],
    [
      "a discovered line in some other tool's output discovers nothing (OpenAI)",
      openaiCall("Read", { target: "x" }, formatDiscoveredLine(["mcp__evil__tool"])),
      [],
    ],
    [
      "a discover: result (no discovered line) discovers nothing",
      anthropicCall("ToolSearch", { query: "discover:issue" }, "Found 1 tool(s), not loaded.\n\n### mcp__github__create_issue"),
      [],
    ],
    ["a prefetch attachment in a user message (string)", [{ role: "user", content: attachment }], ["mcp__slack__post_message"]],
    [
      "a prefetch attachment as a text block beside a tool result",
      [
        ...anthropicCall("Bash", { target: "ls" }, "ok").slice(0, 1),
        { role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: "ok" }, { type: "text", text: attachment }] },
      ],
      ["mcp__slack__post_message"],
    ],
    ["a prefetch attachment in an OpenAI user message with parts", [{ role: "user", content: [{ type: "text", text: attachment }] }], ["mcp__slack__post_message"]],
    ["a native prefetch attachment only suggests", [{ role: "user", content: renderToolDiscovery([mcp("slack", "post_message")], "native")! }], []],
    ["the compaction block in a user summary", [{ role: "user", content: `Summary of the conversation so far.\n\n${compaction}` }], ["WebFetch", "mcp__jira__create-ticket"]],
    ["the compaction block in an OpenAI system message", [{ role: "system", content: compaction }], ["WebFetch", "mcp__jira__create-ticket"]],
    ["the compaction block in an assistant summary", [{ role: "assistant", content: compaction }], ["WebFetch", "mcp__jira__create-ticket"]],
    [
      "an unclosed block is ignored",
      [{ role: "user", content: "<tool-discovery>\n[toolpool discovered: mcp__a__b]" }],
      [],
    ],
    [
      "malformed messages are skipped, not fatal",
      [null, 7, "text", { content: "no role" }, { role: "user", content: [null, { type: "tool_result" }, { type: "tool_reference" }] }, { role: "tool", content: 5 }],
      [],
    ],
    [
      "invalid tool names are dropped",
      anthropicCall("ToolSearch", { query: "x" }, [{ type: "tool_reference", tool_name: "bad name!" }, { type: "tool_reference", tool_name: "Good" }]),
      ["Good"],
    ],
  ] as const)("%s", (_case, messages, expected) => {
    expect(discovered(messages)).toEqual([...expected]);
  });

  test("Anthropic's system parameter is scanned too", () => {
    expect(discovered([], [{ type: "text", text: compaction }])).toEqual(["WebFetch", "mcp__jira__create-ticket"]);
    expect(discovered([], compaction)).toEqual(["WebFetch", "mcp__jira__create-ticket"]);
  });

  test("sources accumulate across a mixed transcript", () => {
    const messages = [
      { role: "user", content: compaction },
      ...anthropicCall("ToolSearch", { query: "x" }, [{ type: "tool_reference", tool_name: "mcp__github__get_issue" }]),
      ...anthropicCall("ToolSearch", { query: "y" }, proxySearchText(["mcp__github__create_issue"])),
      { role: "user", content: attachment },
    ];
    expect(discovered(messages)).toEqual([
      "WebFetch",
      "mcp__github__create_issue",
      "mcp__github__get_issue",
      "mcp__jira__create-ticket",
      "mcp__slack__post_message",
    ]);
  });
});

describe("the announced set, replayed from deltas", () => {
  const delta = (added: string[], removed: string[] = []) => {
    const state = emptyAnnouncedState();
    for (const name of removed) state.announced.add(name);
    return computeDelta({ state, deferred: new Set(added), inPool: new Set(added), changed: new Map() })!.text;
  };

  test("added and removed apply in order", () => {
    const messages = [
      { role: "user", content: delta(["a", "b", "c"]) },
      { role: "user", content: [{ type: "text", text: delta([], ["b"]) }] },
      { role: "user", content: delta(["b"]) },
      { role: "user", content: delta([], ["c"]) },
    ];
    expect([...scanTranscript(messages).announced].sort()).toEqual(["a", "b"]);
  });

  test("a delta the assistant wrote (quoted) is not something it was told", () => {
    expect([...scanTranscript([{ role: "assistant", content: delta(["a"]) }]).announced]).toEqual([]);
  });

  test("a delta inside a tool result is not an announcement", () => {
    expect([...scanTranscript(anthropicCall("WebFetch", {}, delta(["a"]))).announced]).toEqual([]);
  });
});
