import { expect, test } from "bun:test";
import { formatExplanation } from "../../src/cli/explain-command.ts";

test("explain's text form: the summary, one marked line per decision, and the two answers", () => {
  const text = formatExplanation({
    name: "mcp__fx__echo",
    tool: "mcp__fx__echo",
    session: "s1",
    inToolsArray: false,
    callable: false,
    summary: "mcp__fx__echo is deferred and not discovered yet: it waits behind ToolSearch",
    decisions: [
      { step: "server", verdict: "pass", reason: "MCP server fx is connected", server: "fx", state: "connected" },
      { step: "deferral", verdict: "note", reason: "an MCP tool: deferred whenever the session defers", rule: "mcp_tool" },
      { step: "discovered", verdict: "blocked", reason: "not discovered in this session yet" },
    ],
  });
  expect(text).toBe(
    [
      "mcp__fx__echo (session s1): mcp__fx__echo is deferred and not discovered yet: it waits behind ToolSearch",
      "  ✓ server       MCP server fx is connected",
      "  · deferral     an MCP tool: deferred whenever the session defers",
      "  ✗ discovered   not discovered in this session yet",
      "  in the tools array: no; callable: no",
    ].join("\n"),
  );
});

test("a misspelt mcp__ name keeps its did-you-mean in the text (the server step speaks first in the summary)", () => {
  const text = formatExplanation({
    name: "mcp__fx__ecko",
    inToolsArray: false,
    callable: false,
    summary: 'no tool named "mcp__fx__ecko"',
    decisions: [{ step: "pool", verdict: "blocked", reason: 'no tool named "mcp__fx__ecko" is in the pool' }],
    didYouMean: ["mcp__fx__echo"],
  });
  expect(text.split("\n").slice(-2)).toEqual(["  did you mean: mcp__fx__echo?", "  in the tools array: no; callable: no"]);
});

test("without --session the header says the answer is for a new session with the daemon's defaults", () => {
  const text = formatExplanation({ name: "Read", tool: "Read", session: "s9", inToolsArray: true, callable: true, summary: "Read is sent in full", decisions: [] }, true);
  expect(text.split("\n")[0]).toBe("Read (a new session with the daemon's defaults): Read is sent in full");
});
