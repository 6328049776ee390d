/** Every file-tool path and pattern is bounded in length, and resolving a path is linear in it. */
import { describe, expect, test } from "bun:test";
import { notebookEditTool } from "../../src/builtin/notebook-edit.ts";
import { MAX_PATH_BYTES, MAX_PATH_COMPONENT_BYTES, pathLimitProblem } from "../../src/builtin/path-limits.ts";
import { resolveRealPath } from "../../src/builtin/workspace-paths.ts";
import { CORE_TOOLS, makeWorkspace } from "./fixture.ts";

const HUGE = "/a".repeat(200_000);

describe("path limits", () => {
  test("pathLimitProblem names the field, the size and the limit", () => {
    expect(pathLimitProblem("/ok/path", "file_path")).toBeUndefined();
    expect(pathLimitProblem("/x".repeat(MAX_PATH_BYTES / 2), "file_path")).toBeUndefined();
    expect(pathLimitProblem(`/x${"/x".repeat(MAX_PATH_BYTES / 2)}`, "file_path")).toBe(
      `file_path is 4,098 bytes long; the limit is ${MAX_PATH_BYTES} bytes (PATH_MAX). Give a shorter path.`,
    );
    // Bytes, not characters: 128 × "é" is 256 bytes.
    expect(pathLimitProblem(`/dir/${"é".repeat(128)}`, "path")).toBe(
      `path has a component of 256 bytes ("${"é".repeat(40)}…"); the limit is ${MAX_PATH_COMPONENT_BYTES} bytes per name (NAME_MAX).`,
    );
    expect(pathLimitProblem(`/dir/${"é".repeat(127)}`, "path")).toBeUndefined();
  });

  test("each file tool refuses an over-long path or pattern with the limit named, at once", async () => {
    using workspace = makeWorkspace();
    const tools = [...CORE_TOOLS, notebookEditTool];
    const started = performance.now();
    const outcomes = {
      Read: await workspace.run("Read", { file_path: HUGE }, { tools }),
      Write: await workspace.run("Write", { file_path: HUGE, content: "x" }, { tools }),
      Edit: await workspace.run("Edit", { file_path: HUGE, old_string: "a", new_string: "b" }, { tools }),
      NotebookEdit: await workspace.run("NotebookEdit", { notebook_path: `${HUGE}.ipynb`, new_source: "x", edit_mode: "insert" }, { tools }),
      GlobPattern: await workspace.run("Glob", { pattern: `${HUGE}/*.ts` }, { tools }),
      GlobPath: await workspace.run("Glob", { pattern: "*.ts", path: HUGE }, { tools }),
      GrepPath: await workspace.run("Grep", { pattern: "x", path: HUGE }, { tools }),
      GrepGlob: await workspace.run("Grep", { pattern: "x", glob: `${"a".repeat(300)}*` }, { tools }),
    };
    const elapsed = performance.now() - started;
    expect(outcomes).toEqual({
      Read: { isError: true, text: "Permission denied for Read: file_path is 400,000 bytes long; the limit is 4096 bytes (PATH_MAX). Give a shorter path." },
      Write: { isError: true, text: "Permission denied for Write: file_path is 400,000 bytes long; the limit is 4096 bytes (PATH_MAX). Give a shorter path." },
      Edit: { isError: true, text: "Permission denied for Edit: file_path is 400,000 bytes long; the limit is 4096 bytes (PATH_MAX). Give a shorter path." },
      NotebookEdit: {
        isError: true,
        text: "Permission denied for NotebookEdit: notebook_path is 400,006 bytes long; the limit is 4096 bytes (PATH_MAX). Give a shorter path.",
      },
      GlobPattern: { isError: true, text: "pattern is 400,005 bytes long; the limit is 4096 bytes (PATH_MAX). Give a shorter path." },
      GlobPath: { isError: true, text: "Permission denied for Glob: path is 400,000 bytes long; the limit is 4096 bytes (PATH_MAX). Give a shorter path." },
      GrepPath: { isError: true, text: "Permission denied for Grep: path is 400,000 bytes long; the limit is 4096 bytes (PATH_MAX). Give a shorter path." },
      GrepGlob: {
        isError: true,
        text: `Invalid input for Grep:\n- glob: has a component of 301 bytes ("${"a".repeat(40)}…"); the limit is 255 bytes per name (NAME_MAX).\nRewrite the input so it satisfies the tool's input schema, then call it again.`,
      },
    });
    // Generous: the quadratic resolution this replaces took 41 s for one of these paths.
    expect(elapsed).toBeLessThan(2_000);
  });

  test("a relative path that only the working directory makes too long is refused too", () => {
    using workspace = makeWorkspace();
    const relative = "b/".repeat((MAX_PATH_BYTES - 10) / 2);
    expect(() => resolveRealPath(relative, workspace.root)).toThrow(/bytes long; the limit is 4096 bytes \(PATH_MAX\)/);
  });

  test("a path of the longest allowed length that does not exist resolves to itself", () => {
    using workspace = makeWorkspace();
    const deep = workspace.root + "/a".repeat((MAX_PATH_BYTES - workspace.root.length - 2) / 2);
    expect(resolveRealPath(deep, "/")).toBe(deep);
  });
});
