/** Bad input to every core tool is refused through the pipeline, naming the field, changing nothing. */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { makeWorkspace } from "./fixture.ts";

const cases: ReadonlyArray<{ tool: string; input: unknown; field: string; problem: RegExp }> = [
  { tool: "Bash", input: {}, field: "command", problem: /expected string/ },
  { tool: "Bash", input: { command: "" }, field: "command", problem: /must not be empty/ },
  { tool: "Bash", input: { command: "true", timeout: 600_001 }, field: "timeout", problem: /600000/ },
  { tool: "Bash", input: { command: "true", timeout: 1.5 }, field: "timeout", problem: /expected int, received number/ },
  { tool: "Read", input: { file_path: 42 }, field: "file_path", problem: /expected string/ },
  { tool: "Read", input: { file_path: "a", offset: -1 }, field: "offset", problem: />=0/ },
  { tool: "Read", input: { file_path: "a", limit: 0 }, field: "limit", problem: />0/ },
  { tool: "Write", input: { file_path: "created.txt" }, field: "content", problem: /expected string/ },
  { tool: "Edit", input: { file_path: "a", old_string: "x", new_string: 1 }, field: "new_string", problem: /expected string/ },
  { tool: "Edit", input: { file_path: "a", old_string: "x", new_string: "y", replace_all: "yes" }, field: "replace_all", problem: /expected boolean/ },
  { tool: "Glob", input: { pattern: "" }, field: "pattern", problem: />=1/ },
  { tool: "Glob", input: { pattern: "*", path: ["."] }, field: "path", problem: /expected string/ },
  { tool: "Grep", input: { pattern: "x", output_mode: "lines" }, field: "output_mode", problem: /files_with_matches/ },
  { tool: "Grep", input: { pattern: "x", "-C": -2 }, field: "-C", problem: />=0/ },
  { tool: "Grep", input: { pattern: "x", head_limit: 0 }, field: "head_limit", problem: />0/ },
  { tool: "Grep", input: { pattern: "(unclosed" }, field: "pattern", problem: /pattern: is not a valid regular expression \(missing closing \)/ },
  { tool: "Grep", input: { pattern: "x", type: "cobol" }, field: "type", problem: /not a known file type; use one of c, cpp/ },
];

describe("bad input is refused with the field named", () => {
  for (const { tool, input, field, problem } of cases) {
    test(`${tool} ${JSON.stringify(input)}`, async () => {
      using workspace = makeWorkspace();
      const { text, isError } = await workspace.run(tool, input);
      expect(isError).toBe(true);
      const lines = text.split("\n");
      expect(lines[0]).toBe(`Invalid input for ${tool}:`);
      const line = lines.find((candidate) => candidate.startsWith(`- ${field}: `));
      expect(line).toMatch(problem);
      expect(lines.at(-1)).toBe("Rewrite the input so it satisfies the tool's input schema, then call it again.");
      expect(existsSync(workspace.path("created.txt"))).toBe(false);
    });
  }

  test("an unknown property is named", async () => {
    using workspace = makeWorkspace();
    const { text, isError } = await workspace.run("Read", { file_path: "a", path: "b" });
    expect(isError).toBe(true);
    expect(text).toContain('"path"');
  });

  test("input that is not an object is refused as a whole", async () => {
    using workspace = makeWorkspace();
    const { text, isError } = await workspace.run("Bash", "ls");
    expect({ text, isError }).toEqual({
      text: "Invalid input for Bash:\n- (input): must be a JSON object\nRewrite the input so it satisfies the tool's input schema, then call it again.",
      isError: true,
    });
  });

  test("Edit refuses old_string equal to new_string before touching the file", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("same.txt", "abc");
    const { text, isError } = await workspace.run("Edit", { file_path: path, old_string: "b", new_string: "b" });
    expect({ text, isError }).toEqual({
      text: "old_string and new_string are identical, so the edit would change nothing. Give the new text in new_string.",
      isError: true,
    });
    expect(await Bun.file(path).text()).toBe("abc");
  });
});
