import { describe, expect, test } from "bun:test";
import { deferralRule, isDeferredTool, type DeferralFacts } from "../../src/deferral/is-deferred.ts";
import { builtin, mcp, samplePool } from "../assembly/fixtures.ts";

const facts = (name: string, flags: Partial<Omit<DeferralFacts, "name">> = {}): DeferralFacts => ({
  name,
  alwaysLoad: false,
  isMcp: false,
  shouldDefer: false,
  ...flags,
});

describe("isDeferredTool applies its rules in order", () => {
  test.each([
    // [case, tool, rule, deferred]
    ["a plain built-in is core", facts("Read"), "core", false],
    ["a built-in that asks to wait is deferred", facts("WebFetch", { shouldDefer: true }), "should_defer", true],
    ["every MCP tool is deferred", facts("mcp__github__create_issue", { isMcp: true }), "mcp_tool", true],
    ["an MCP tool is deferred even when it says it need not be", facts("mcp__a__b", { isMcp: true, shouldDefer: false }), "mcp_tool", true],
    ["alwaysLoad beats MCP", facts("mcp__slack__list", { isMcp: true, alwaysLoad: true }), "always_load", false],
    ["alwaysLoad beats shouldDefer", facts("WebFetch", { shouldDefer: true, alwaysLoad: true }), "always_load", false],
    ["ToolSearch is never deferred, even when it asks", facts("ToolSearch", { shouldDefer: true }), "meta_tool", false],
    ["ToolSearch is never deferred, even as an MCP tool", facts("ToolSearch", { isMcp: true }), "meta_tool", false],
    ["ExecuteExtraTool is never deferred", facts("ExecuteExtraTool", { shouldDefer: true }), "meta_tool", false],
    ["alwaysLoad is tried before the meta-tool rule", facts("ToolSearch", { alwaysLoad: true }), "always_load", false],
  ] as const)("%s", (_case, tool, rule, deferred) => {
    expect(deferralRule(tool)).toBe(rule);
    expect(isDeferredTool(tool)).toBe(deferred);
  });

  test("real tools: built by buildTool / buildMcpTool", () => {
    expect(isDeferredTool(builtin("Read"))).toBe(false);
    expect(isDeferredTool(builtin("WebFetch", { shouldDefer: true }))).toBe(true);
    expect(isDeferredTool(mcp("github", "create_issue"))).toBe(true);
    expect(isDeferredTool(mcp("slack", "list_channels", { alwaysLoad: true }))).toBe(false);
  });

  test("the sample pool splits into core and deferred", () => {
    const pool = samplePool();
    expect(pool.tools.filter((tool) => !isDeferredTool(tool)).map((tool) => tool.name)).toEqual([
      "Bash",
      "Read",
      "Write",
      "mcp__slack__list_channels",
    ]);
    expect(pool.tools.filter(isDeferredTool).map((tool) => tool.name)).toEqual([
      "NotebookEdit",
      "WebFetch",
      "mcp__github__create_issue",
      "mcp__github__get_issue",
      "mcp__jira__create-ticket",
      "mcp__slack__post_message",
    ]);
  });
});
