/** Grep: the three output modes, context, filters, limits and what is skipped. */
import { describe, expect, test } from "bun:test";
import { utimesSync } from "node:fs";
import { compilePattern, contextGroups, findMatches } from "../../src/builtin/grep-matcher.ts";
import type { LinearRegex } from "../../src/runtime/linear-regex.ts";
import { MAX_GREP_FILE_BYTES } from "../../src/builtin/grep-search.ts";
import { makeWorkspace, type Workspace } from "./fixture.ts";

function touch(path: string, second: number) {
  const when = new Date(Date.UTC(2024, 0, 1, 0, 0, second));
  utimesSync(path, when, when);
}

/** A small tree: two TypeScript files, a Markdown file, and things Grep must skip. */
function sampleTree(workspace: Workspace) {
  const app = workspace.file("src/app.ts", "import x from 'y';\n// TODO: one\nconst a = 1;\n// todo: two\nexport {};\n");
  const util = workspace.file("src/lib/util.ts", "function helper() {}\n// TODO later\n");
  const readme = workspace.file("README.md", "# Title\nTODO write docs\n");
  workspace.file("node_modules/pkg/index.ts", "// TODO vendored\n");
  workspace.file(".git/COMMIT_EDITMSG", "TODO in git\n");
  workspace.file("image.bin", new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01]));
  touch(app, 1);
  touch(util, 2);
  touch(readme, 3);
  return { app, util, readme };
}

describe("Grep", () => {
  test("files_with_matches is the default, newest first, skipping vendored, VCS and binary files", async () => {
    using workspace = makeWorkspace();
    const { app, util, readme } = sampleTree(workspace);
    expect(await workspace.run("Grep", { pattern: "TODO" })).toEqual({
      text: ["Found 3 files", readme, util, app].join("\n"),
      isError: false,
    });
  });

  test("content mode: path:line:text, -n off, -i", async () => {
    using workspace = makeWorkspace();
    const { app, util } = sampleTree(workspace);
    expect((await workspace.run("Grep", { pattern: "TODO", output_mode: "content", type: "ts" })).text).toBe(
      [`${app}:2:// TODO: one`, `${util}:2:// TODO later`].join("\n"),
    );
    expect((await workspace.run("Grep", { pattern: "todo:", output_mode: "content", "-i": true, "-n": false, path: "src/app.ts" })).text).toBe(
      ["// TODO: one", "// todo: two"].join("\n"),
    );
  });

  test("context lines merge when they touch and groups are separated by --", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("ctx.txt", ["a", "hit1", "b", "c", "d", "e", "hit2", "f", "hit3", "g"].join("\n"));
    const run = async (input: Record<string, unknown>) =>
      (await workspace.run("Grep", { pattern: "hit", output_mode: "content", path: workspace.root, ...input })).text;
    expect(await run({ "-C": 1 })).toBe(
      [`${path}-1-a`, `${path}:2:hit1`, `${path}-3-b`, "--", `${path}-6-e`, `${path}:7:hit2`, `${path}-8-f`, `${path}:9:hit3`, `${path}-10-g`].join("\n"),
    );
    expect(await run({ "-A": 1, "-B": 0 })).toBe(
      [`${path}:2:hit1`, `${path}-3-b`, "--", `${path}:7:hit2`, `${path}-8-f`, `${path}:9:hit3`, `${path}-10-g`].join("\n"),
    );
    expect(await run({ "-B": 2, "-C": 0 })).toBe(
      [`${path}-1-a`, `${path}:2:hit1`, "--", `${path}-5-d`, `${path}-6-e`, `${path}:7:hit2`, `${path}-8-f`, `${path}:9:hit3`].join("\n"),
    );
  });

  test("count mode gives matching lines per file and a total", async () => {
    using workspace = makeWorkspace();
    const { app, util, readme } = sampleTree(workspace);
    expect((await workspace.run("Grep", { pattern: "todo", "-i": true, output_mode: "count" })).text).toBe(
      [`${readme}:1`, `${app}:2`, `${util}:1`, "Found 4 matching lines in 3 files."].join("\n"),
    );
    expect((await workspace.run("Grep", { pattern: "TODO", output_mode: "count", path: app })).text).toBe(
      ["1", "Found 1 matching line in 1 file."].join("\n"),
    );
  });

  test("glob filters by file name, by path with a slash, or excludes with !", async () => {
    using workspace = makeWorkspace();
    const { app, util, readme } = sampleTree(workspace);
    const files = async (glob: string) => (await workspace.run("Grep", { pattern: "TODO", glob })).text;
    expect(await files("*.md")).toBe(["Found 1 file", readme].join("\n"));
    expect(await files("src/lib/**")).toBe(["Found 1 file", util].join("\n"));
    expect(await files("!*.md")).toBe(["Found 2 files", util, app].join("\n"));
    expect(await files("*.{md,ts}")).toBe(["Found 3 files", readme, util, app].join("\n"));
  });

  test("head_limit applies to each mode and says when it cut", async () => {
    using workspace = makeWorkspace();
    const { app, readme } = sampleTree(workspace);
    expect((await workspace.run("Grep", { pattern: "TODO", head_limit: 1 })).text).toBe(
      ["Found 3 files; showing the 1 most recently modified", readme].join("\n"),
    );
    expect((await workspace.run("Grep", { pattern: "o", output_mode: "content", head_limit: 2, path: app })).text).toBe(
      [
        "1:import x from 'y';",
        "2:// TODO: one",
        "[Showing the first 2 lines of output; there are more. Narrow the search with path, glob or type, or raise head_limit.]",
      ].join("\n"),
    );
    expect((await workspace.run("Grep", { pattern: "TODO", output_mode: "count", head_limit: 1 })).text).toBe(
      [`${readme}:1`, "[Showing the first 1 entry; there are more. Narrow the search with path, glob or type, or raise head_limit.]"].join("\n"),
    );
  });

  test("multiline lets a match span lines and prints every line it covers", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("s.go", "type T struct {\n\tA int\n\tB string\n}\nfunc f() {}\n");
    expect((await workspace.run("Grep", { pattern: "struct \\{.*?B", output_mode: "content", path })).text).toBe("No matches found.");
    expect((await workspace.run("Grep", { pattern: "struct \\{.*?B", multiline: true, output_mode: "content", path })).text).toBe(
      ["1:type T struct {", "2:\tA int", "3:\tB string"].join("\n"),
    );
  });

  test("large files are skipped with a note; long matching lines are cut", async () => {
    using workspace = makeWorkspace();
    workspace.file("huge.log", `needle\n${"x".repeat(MAX_GREP_FILE_BYTES)}`);
    const wide = workspace.file("wide.js", `${"needle".padEnd(800, "z")}\n`);
    expect((await workspace.run("Grep", { pattern: "needle", output_mode: "content" })).text).toBe(
      [`${wide}:1:${"needle".padEnd(500, "z")} [... line cut: 300 more characters]`, "[Skipped 1 file larger than 5.0 MB; use Read with offset and limit on them.]"].join("\n"),
    );
  });

  test("no match is a plain answer, not an error; a missing path is an error", async () => {
    using workspace = makeWorkspace();
    sampleTree(workspace);
    expect(await workspace.run("Grep", { pattern: "absent-text" })).toEqual({ text: "No matches found.", isError: false });
    expect(await workspace.run("Grep", { pattern: "x", path: "nowhere" })).toEqual({
      text: `Path does not exist: ${workspace.path("nowhere")}`,
      isError: true,
    });
  });
});

describe("grep-matcher", () => {
  const regex = (pattern: string, multiline = false) => compilePattern(pattern, { ignoreCase: false, multiline }) as LinearRegex;

  test("findMatches works line by line, drops a final empty line and CRs", async () => {
    expect(await findMatches("a1\r\nb\r\na2\r\n", regex("a"), false)).toEqual({ lines: ["a1", "b", "a2"], matched: [0, 2] });
    expect(await findMatches("", regex("x?"), false)).toEqual({ lines: [], matched: [] });
  });

  test("findMatches in multiline mode marks every line a match covers", async () => {
    expect((await findMatches("x\nbegin\nmid\nend\ny\n", regex("begin.*?end", true), true)).matched).toEqual([1, 2, 3]);
    expect((await findMatches("a\nb\n", regex("^", true), true)).matched).toEqual([0, 1]);
  });

  test("findMatches yields to the event loop between slices and stops when cancelled", async () => {
    let clock = 0;
    let yields = 0;
    const controller = new AbortController();
    const lines = Array.from({ length: 1000 }, (_, index) => `line ${index}`).join("\n");
    const outcome = findMatches(lines, regex("line"), false, {
      signal: controller.signal,
      now: () => (clock += 10),
      yielder: async () => {
        yields++;
        if (yields === 3) controller.abort();
      },
    });
    await expect(outcome).rejects.toThrow("the search was cancelled");
    expect(yields).toBe(3);
  });

  test("contextGroups merges overlapping and adjacent ranges only", () => {
    const matches = { lines: Array.from({ length: 10 }, (_, index) => String(index)), matched: [1, 4, 8] };
    const shape = (before: number, after: number) =>
      contextGroups(matches, before, after).map((group) => group.map(({ index, isMatch }) => (isMatch ? `[${index}]` : `${index}`)).join(" "));
    expect(shape(0, 0)).toEqual(["[1]", "[4]", "[8]"]);
    expect(shape(1, 1)).toEqual(["0 [1] 2 3 [4] 5", "7 [8] 9"]);
    expect(shape(0, 2)).toEqual(["[1] 2 3 [4] 5 6", "[8] 9"]);
  });
});
