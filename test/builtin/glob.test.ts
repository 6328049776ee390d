/** Glob: matching, newest-first order, the result cap, skipped directories, where it searches. */
import { describe, expect, test } from "bun:test";
import { symlinkSync, utimesSync } from "node:fs";
import { splitGlobPattern } from "../../src/builtin/glob-pattern.ts";
import { MAX_GLOB_RESULTS } from "../../src/builtin/glob.ts";
import { makeWorkspace, type Workspace } from "./fixture.ts";

/** Writes files with strictly increasing mtimes, oldest first. */
function filesByAge(workspace: Workspace, paths: readonly string[]): string[] {
  return paths.map((relative, index) => {
    const path = workspace.file(relative, relative);
    const when = new Date(Date.UTC(2024, 0, 1, 0, 0, index));
    utimesSync(path, when, when);
    return path;
  });
}

describe("Glob", () => {
  test("lists matches newest first, ties by name", async () => {
    using workspace = makeWorkspace();
    const [oldest, middle, newest] = filesByAge(workspace, ["src/b.ts", "src/deep/c.ts", "a.ts"]);
    workspace.file("notes.md", "");
    const tied = [workspace.file("t/y.ts", ""), workspace.file("t/x.ts", "")];
    const when = new Date(Date.UTC(2020, 0, 1));
    for (const path of tied) utimesSync(path, when, when);
    expect(await workspace.run("Glob", { pattern: "**/*.ts" })).toEqual({
      text: [newest, middle, oldest, workspace.path("t/x.ts"), workspace.path("t/y.ts")].join("\n"),
      isError: false,
    });
  });

  test("* stays in one directory; a leading directory narrows the walk; path sets the start", async () => {
    using workspace = makeWorkspace();
    filesByAge(workspace, ["top.ts", "src/inner.ts", "src/tool/deep.ts", "lib/other.ts"]);
    expect((await workspace.run("Glob", { pattern: "*.ts" })).text).toBe(workspace.path("top.ts"));
    expect((await workspace.run("Glob", { pattern: "src/*.ts" })).text).toBe(workspace.path("src/inner.ts"));
    expect((await workspace.run("Glob", { pattern: "*.ts", path: "src/tool" })).text).toBe(workspace.path("src/tool/deep.ts"));
    expect((await workspace.run("Glob", { pattern: `${workspace.root}/lib/*.ts` })).text).toBe(workspace.path("lib/other.ts"));
    expect((await workspace.run("Glob", { pattern: "{top,lib/other}.ts" })).text).toBe(
      [workspace.path("lib/other.ts"), workspace.path("top.ts")].join("\n"),
    );
  });

  test("caps the list at 100 and says how many matched", async () => {
    using workspace = makeWorkspace();
    const names = Array.from({ length: MAX_GLOB_RESULTS + 5 }, (_, index) => `many/f${String(index).padStart(3, "0")}.txt`);
    const paths = filesByAge(workspace, names);
    const { text, isError } = await workspace.run("Glob", { pattern: "many/*.txt" });
    expect(isError).toBe(false);
    expect(text).toBe(
      [
        ...paths.slice().reverse().slice(0, MAX_GLOB_RESULTS),
        "[Showing the 100 most recently modified of 105 matching files. Use a narrower pattern or path to see the others.]",
      ].join("\n"),
    );
  });

  test("includes dotfiles, skips .git and node_modules unless the pattern names them", async () => {
    using workspace = makeWorkspace();
    filesByAge(workspace, [".env.ts", ".git/hooks/x.ts", "node_modules/zod/index.ts", "src/a.ts"]);
    expect((await workspace.run("Glob", { pattern: "**/*.ts" })).text).toBe(
      [workspace.path("src/a.ts"), workspace.path(".env.ts")].join("\n"),
    );
    expect((await workspace.run("Glob", { pattern: "node_modules/**/*.ts" })).text).toBe(workspace.path("node_modules/zod/index.ts"));
  });

  test("does not follow symlinked directories", async () => {
    using workspace = makeWorkspace();
    workspace.file("real/a.ts", "");
    symlinkSync(workspace.path("real"), workspace.path("alias"));
    expect((await workspace.run("Glob", { pattern: "**/*.ts" })).text).toBe(workspace.path("real/a.ts"));
  });

  test("no match, a missing directory and a file as path", async () => {
    using workspace = makeWorkspace();
    const file = workspace.file("a.txt", "");
    expect(await workspace.run("Glob", { pattern: "**/*.rs" })).toEqual({
      text: `No files match **/*.rs in ${workspace.root}.`,
      isError: false,
    });
    expect(await workspace.run("Glob", { pattern: "*", path: "missing" })).toEqual({
      text: `Directory does not exist: ${workspace.path("missing")}`,
      isError: true,
    });
    expect(await workspace.run("Glob", { pattern: "*", path: file })).toEqual({
      text: `${file} is not a directory; give a directory as path.`,
      isError: true,
    });
  });
});

describe("splitGlobPattern", () => {
  test("separates the plain leading directory from the part to match", () => {
    expect(
      ["**/*.ts", "src/tool/*.ts", "/abs/dir/**/x.ts", "/*.ts", "a.ts", "src/a.ts", "../x/*.md", "a/{b,c}/*.ts"].map(splitGlobPattern),
    ).toEqual([
      { base: "", rest: "**/*.ts" },
      { base: "src/tool", rest: "*.ts" },
      { base: "/abs/dir", rest: "**/x.ts" },
      { base: "/", rest: "*.ts" },
      { base: "", rest: "a.ts" },
      { base: "src", rest: "a.ts" },
      { base: "../x", rest: "*.md" },
      { base: "a", rest: "{b,c}/*.ts" },
    ]);
  });
});
