import { describe, expect, test } from "bun:test";
import { parametersOf, searchDocumentFromTool } from "../../src/search/tool-document.ts";

describe("searchDocumentFromTool", () => {
  test("builds a document from an eval / MCP-style tool", () => {
    const doc = searchDocumentFromTool({
      name: "mcp__git__git_status",
      server: "git",
      description: "Shows the working tree status",
      input_schema: {
        type: "object",
        properties: {
          repo_path: { type: "string", title: "Repo Path" },
          mode: { type: "string", description: "Output mode", enum: ["short", "long", 3] },
        },
        required: ["repo_path"],
      },
      server_description: "Git repository interaction",
    });
    expect(doc).toEqual({
      name: "mcp__git__git_status",
      description: "Shows the working tree status",
      parameters: [
        { name: "repo_path", required: true },
        { name: "mode", description: "Output mode", values: ["short", "long"] },
      ],
      server: "git",
      rawToolName: "git_status",
      serverDescription: "Git repository interaction",
    });
  });

  test("takes the MCP wire spelling and derives the server from the name", () => {
    const doc = searchDocumentFromTool({ name: "mcp__slack__send", inputSchema: { properties: { text: {} } } });
    expect(doc).toEqual({
      name: "mcp__slack__send",
      description: "",
      parameters: [{ name: "text" }],
      server: "slack",
      rawToolName: "send",
    });
  });

  test("a built-in style tool has no server or raw name", () => {
    expect(searchDocumentFromTool({ name: "get_weather", description: "Weather." })).toEqual({
      name: "get_weather",
      description: "Weather.",
      parameters: [],
    });
  });

  test("malformed schemas yield no parameters", () => {
    for (const schema of [undefined, null, 7, "x", [], { properties: [] }, { properties: null }]) {
      expect(parametersOf(schema)).toEqual([]);
    }
  });
});
