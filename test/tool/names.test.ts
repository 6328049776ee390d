/** Tool names: sanitizing, the 64-character limit with a hash suffix, parsing back. */
import { describe, expect, test } from "bun:test";
import { isValidToolName, MAX_TOOL_NAME_LENGTH, mcpServerPrefix, mcpToolName, parseMcpName, sanitizeNamePart } from "../../src/tool/names.ts";

describe("mcpToolName", () => {
  test("joins server and tool, reducing each to [a-zA-Z0-9_-]", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(mcpToolName("my server", "get.item/v2")).toBe("mcp__my_server__get_item_v2");
    expect(mcpToolName("ünï", "")).toBe("mcp___n____");
    expect(sanitizeNamePart("")).toBe("_");
  });

  test("a name that fits is left alone, even at exactly 64 characters", () => {
    const tool = "t".repeat(MAX_TOOL_NAME_LENGTH - "mcp__s__".length);
    expect(mcpToolName("s", tool)).toBe(`mcp__s__${tool}`);
    expect(mcpToolName("s", tool)).toHaveLength(64);
  });

  test("a long name is cut to 64 characters with a hash suffix", () => {
    const name = mcpToolName("server", "a".repeat(100));
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^mcp__server__a+_[0-9a-f]{8}$/);
    expect(isValidToolName(name)).toBe(true);
    expect(mcpToolName("server", "a".repeat(100))).toBe(name);
  });

  test("distinct long names stay distinct, including ones equal after sanitizing", () => {
    const shared = "x".repeat(80);
    const names = new Set([
      mcpToolName("server", `${shared}_one`),
      mcpToolName("server", `${shared}_two`),
      mcpToolName("server", `${shared}.one`),
      mcpToolName("other", `${shared}_one`),
    ]);
    expect(names.size).toBe(4);
  });
});

describe("name helpers", () => {
  test("isValidToolName", () => {
    expect(["Read", "mcp__a__b", "a-b_c9"].map(isValidToolName)).toEqual([true, true, true]);
    expect(["", "a b", "a.b", "x".repeat(65)].map(isValidToolName)).toEqual([false, false, false, false]);
  });

  test("parseMcpName splits at the first separator after the server", () => {
    expect(parseMcpName("mcp__slack__post__message")).toEqual({ server: "slack", tool: "post__message" });
    expect(parseMcpName("Read")).toBeUndefined();
    expect(parseMcpName("mcp____tool")).toBeUndefined();
    expect(mcpServerPrefix("my.server")).toBe("mcp__my_server");
  });
});
