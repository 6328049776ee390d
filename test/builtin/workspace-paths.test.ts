/** File tools stay inside the workspace roots: `..`, absolute paths and symlinks cannot lead out. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { resolveInWorkspace, resolveRealPath, WorkspacePathError } from "../../src/builtin/workspace-paths.ts";
import { makeWorkspace } from "./fixture.ts";

function outsideDir() {
  return makeWorkspace("outside-");
}

describe("resolveInWorkspace", () => {
  test("relative paths resolve against cwd, and .. that stays inside is fine", () => {
    using workspace = makeWorkspace();
    mkdirSync(workspace.path("src"));
    const context = workspace.context({ cwd: workspace.path("src") });
    expect(resolveInWorkspace("a.ts", context)).toBe(workspace.path("src/a.ts"));
    expect(resolveInWorkspace("../b.ts", context)).toBe(workspace.path("b.ts"));
    expect(resolveInWorkspace(workspace.root, context)).toBe(workspace.root);
    expect(resolveInWorkspace("new/deep/file.txt", context)).toBe(workspace.path("src/new/deep/file.txt"));
  });

  test("a symlink inside the workspace pointing inside resolves to its target", () => {
    using workspace = makeWorkspace();
    const target = workspace.file("real/target.txt", "x");
    symlinkSync(target, workspace.path("alias.txt"));
    symlinkSync(workspace.path("real"), workspace.path("dir-alias"));
    expect(resolveInWorkspace("alias.txt", workspace.context())).toBe(target);
    expect(resolveInWorkspace("dir-alias/new.txt", workspace.context())).toBe(workspace.path("real/new.txt"));
  });

  test("escapes are refused with the path and the roots named", () => {
    using workspace = makeWorkspace();
    using outside = outsideDir();
    const secret = outside.file("secret.txt", "s");
    symlinkSync(secret, workspace.path("file-link"));
    symlinkSync(outside.root, workspace.path("dir-link"));
    symlinkSync(join(outside.root, "not-yet.txt"), workspace.path("dangling-link"));
    const context = workspace.context();
    const refusals = {
      dotdot: "../outside.txt",
      absolute: secret,
      fileLink: "file-link",
      parentLink: "dir-link/secret.txt",
      newFileUnderParentLink: "dir-link/new/file.txt",
      dangling: "dangling-link",
    };
    for (const [kind, path] of Object.entries(refusals)) {
      let caught: unknown;
      try {
        resolveInWorkspace(path, context);
      } catch (error) {
        caught = error;
      }
      expect({ kind, type: caught instanceof WorkspacePathError }).toEqual({ kind, type: true });
      const message = (caught as Error).message;
      expect(message).toContain(path);
      expect(message).toContain(`outside the workspace roots (${workspace.root})`);
      if (kind.toLowerCase().includes("link") || kind === "dangling") expect(message).toContain("through a symbolic link");
    }
  });

  test("empty paths, NUL bytes, no roots and symlink loops get their own messages", () => {
    using workspace = makeWorkspace();
    symlinkSync(workspace.path("loop-b"), workspace.path("loop-a"));
    symlinkSync(workspace.path("loop-a"), workspace.path("loop-b"));
    expect(() => resolveInWorkspace(" ", workspace.context())).toThrow("file_path is empty");
    expect(() => resolveInWorkspace("a\0b", workspace.context())).toThrow("NUL character");
    expect(() => resolveInWorkspace("a", workspace.context({ workspaceRoots: [] }))).toThrow("no workspace roots");
    expect(() => resolveInWorkspace("loop-a", workspace.context())).toThrow("too many levels of symbolic links");
  });

  test("resolveRealPath follows a dangling link to where a write would land", () => {
    using workspace = makeWorkspace();
    symlinkSync("sub/later.txt", workspace.path("pending"));
    expect(resolveRealPath("pending", workspace.root)).toBe(workspace.path("sub/later.txt"));
  });
});

describe("every file tool refuses escapes through the pipeline", () => {
  const attempts = (target: string) => [
    { tool: "Read", input: { file_path: target } },
    { tool: "Write", input: { file_path: target, content: "pwned" } },
    { tool: "Edit", input: { file_path: target, old_string: "s", new_string: "pwned" } },
    { tool: "Glob", input: { pattern: "*", path: target } },
    { tool: "Grep", input: { pattern: "s", path: target } },
  ];

  test("absolute path, .., symlinked file and symlinked parent directory", async () => {
    using workspace = makeWorkspace();
    using outside = outsideDir();
    const secret = outside.file("secret.txt", "s");
    symlinkSync(secret, workspace.path("file-link"));
    symlinkSync(outside.root, workspace.path("dir-link"));
    const relativeEscape = join("..", outside.root.split("/").at(-1) ?? "", "secret.txt");
    for (const target of [secret, relativeEscape, "file-link", "dir-link/secret.txt"]) {
      for (const { tool, input } of attempts(target)) {
        const { text, isError } = await workspace.run(tool, input);
        expect({ tool, target, isError, denied: text.startsWith(`Permission denied for ${tool}: `) }).toEqual({
          tool,
          target,
          isError: true,
          denied: true,
        });
        expect(text).toContain("outside the workspace roots");
      }
    }
    expect(await Bun.file(secret).text()).toBe("s");
  });

  test("Write through a symlinked parent creates nothing outside", async () => {
    using workspace = makeWorkspace();
    using outside = outsideDir();
    symlinkSync(outside.root, workspace.path("dir-link"));
    symlinkSync(join(outside.root, "dangling.txt"), workspace.path("dangling"));
    const viaParent = await workspace.run("Write", { file_path: "dir-link/sub/new.txt", content: "x" });
    const viaDangling = await workspace.run("Write", { file_path: "dangling", content: "x" });
    expect([viaParent.isError, viaDangling.isError]).toEqual([true, true]);
    expect(existsSync(join(outside.root, "sub"))).toBe(false);
    expect(existsSync(join(outside.root, "dangling.txt"))).toBe(false);
  });

  test("confinement holds in bypass mode too", async () => {
    using workspace = makeWorkspace();
    using outside = outsideDir();
    const secret = outside.file("secret.txt", "s");
    const { isError, text } = await workspace.run("Read", { file_path: secret }, { permissions: { mode: "bypass", allow: [], deny: [] } });
    expect(isError).toBe(true);
    expect(text).toContain("outside the workspace roots");
  });

  test("a Glob pattern cannot climb out of the workspace either", async () => {
    using workspace = makeWorkspace();
    using outside = outsideDir();
    outside.file("secret.txt", "s");
    const { isError, text } = await workspace.run("Glob", { pattern: `${outside.root}/*.txt` });
    const relative = await workspace.run("Glob", { pattern: "../*/*.txt" });
    expect([isError, relative.isError]).toEqual([true, true]);
    expect(text).toContain("outside the workspace roots");
  });
});
