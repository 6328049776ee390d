import { describe, expect, test } from "bun:test";
import { parseToolDiscovery, renderToolDiscovery } from "../../src/assembly/tool-discovery-attachment.ts";
import { shortDescription, SHORT_DESCRIPTION_CHARS } from "../../src/assembly/tool-text.ts";
import { mcp } from "./fixtures.ts";

const issue = mcp("github", "create_issue", { description: "Create an issue in a GitHub repository.\n\nLong details follow." });
const post = mcp("slack", "post_message", { description: "Post a message to a Slack channel." });

describe("tool_discovery attachment", () => {
  test("proxy: short descriptions, schemas and the discovered line", () => {
    expect(renderToolDiscovery([issue, post], "proxy")).toBe(
      [
        "<tool-discovery>",
        'These deferred tools may help with the request. Call one with ExecuteExtraTool {"tool_name": "<name>", "params": {…}}; params must match its input schema.',
        "### mcp__github__create_issue",
        "Create an issue in a GitHub repository.",
        'Input schema: {"type":"object","properties":{"title":{"type":"string","description":"Title of the thing."}},"required":["title"]}',
        "### mcp__slack__post_message",
        "Post a message to a Slack channel.",
        'Input schema: {"type":"object","properties":{"title":{"type":"string","description":"Title of the thing."}},"required":["title"]}',
        "[toolpool discovered: mcp__github__create_issue, mcp__slack__post_message]",
        "</tool-discovery>",
      ].join("\n"),
    );
    expect(parseToolDiscovery(renderToolDiscovery([issue, post], "proxy")!)).toEqual(["mcp__github__create_issue", "mcp__slack__post_message"]);
  });

  test("native: a suggestion with the select: to use, no schemas, nothing discovered", () => {
    const text = renderToolDiscovery([issue, post], "native")!;
    expect(text).toContain('ToolSearch {"query": "select:mcp__github__create_issue,mcp__slack__post_message"}');
    expect(text).not.toContain("Input schema");
    expect(parseToolDiscovery(text)).toEqual([]);
  });

  test("nothing to suggest: no attachment", () => {
    expect(renderToolDiscovery([], "proxy")).toBeNull();
  });

  test("short descriptions are the first paragraph, capped", () => {
    expect(shortDescription("One.\n\nTwo.")).toBe("One.");
    const long = shortDescription("word ".repeat(100));
    expect(long.length).toBe(SHORT_DESCRIPTION_CHARS);
    expect(long.endsWith("…")).toBe(true);
  });
});
