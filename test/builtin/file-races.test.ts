/**
 * Check-then-use races against the file tools, with a real concurrent swapper process (the tools'
 * I/O runs on Bun's threads, so the interleaving is real). Each test makes a bounded number of tries
 * and asserts that no try escaped; before the descriptor-based I/O, each found escapes.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { editTool } from "../../src/builtin/edit.ts";
import { CORE_TOOLS, makeWorkspace } from "./fixture.ts";

const TRIES = 300;
/** Read and Grep are cheap, and the gap they once had is narrow: they get more tries. */
const READ_TRIES = 1500;
const FIXTURES = join(import.meta.dir, "..", "fixtures", "races");
/** Starts a swapper and waits for its first swap; disposing it stops it before the workspace goes. */
async function startSwapper(script: string, args: string[]): Promise<AsyncDisposable> {
  const swapper = Bun.spawn([process.execPath, join(FIXTURES, script), ...args], { stdout: "pipe", stderr: "inherit" });
  const stop = async () => {
    swapper.kill("SIGKILL");
    await swapper.exited;
  };
  const reader = swapper.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  if (!new TextDecoder().decode(value).includes("ready")) {
    await stop();
    throw new Error(`${script} did not start`);
  }
  return { [Symbol.asyncDispose]: stop };
}

describe("symlink races", () => {
  test("Read never returns a file outside the roots while a directory is swapped for a symlink", async () => {
    using workspace = makeWorkspace();
    using outside = makeWorkspace("outside-");
    workspace.file("dir/f.txt", "inside\n");
    outside.file("dir/f.txt", "OUTSIDE SECRET\n");
    await using _swapper = await startSwapper("swap-directory.ts", [workspace.path("dir"), outside.path("dir")]);
    const texts: Record<string, number> = {};
    for (let attempt = 0; attempt < READ_TRIES; attempt++) {
      const { text } = await workspace.run("Read", { file_path: workspace.path("dir/f.txt") });
      const kind = text.includes("OUTSIDE") ? "escaped" : text.includes("inside") ? "inside" : "refused";
      texts[kind] = (texts[kind] ?? 0) + 1;
    }
    expect(texts.escaped ?? 0).toBe(0);
  }, 60_000);

  test("Write never creates or overwrites a file outside the roots while a directory is swapped for a symlink", async () => {
    using workspace = makeWorkspace();
    using outside = makeWorkspace("outside-");
    mkdirSync(workspace.path("dir"));
    mkdirSync(outside.path("dir"));
    await using _swapper = await startSwapper("swap-directory.ts", [workspace.path("dir"), outside.path("dir")]);
    for (let attempt = 0; attempt < TRIES; attempt++) {
      await workspace.run("Write", { file_path: workspace.path(`dir/new-${attempt}.txt`), content: "written" });
    }
    expect(readdirSync(outside.path("dir"))).toEqual([]);
  }, 60_000);
});

describe("walks", () => {
  test("Grep never searches a file outside the roots while a directory is swapped for a symlink", async () => {
    using workspace = makeWorkspace();
    using outside = makeWorkspace("outside-");
    workspace.file("dir/f.txt", "inside\n");
    outside.file("dir/f.txt", "OUTSIDE SECRET\n");
    await using _swapper = await startSwapper("swap-directory.ts", [workspace.path("dir"), outside.path("dir")]);
    let escaped = 0;
    for (let attempt = 0; attempt < READ_TRIES; attempt++) {
      const { text } = await workspace.run("Grep", { pattern: "SECRET", output_mode: "content" });
      if (text.includes("OUTSIDE")) escaped++;
    }
    expect(escaped).toBe(0);
  }, 60_000);
});

describe("size checked on the descriptor that is read", () => {
  test("Edit never loads a large file swapped in after the size check", async () => {
    using workspace = makeWorkspace();
    const small = workspace.file("small.txt", "hello world\n");
    // Sparse: 64 MB of NUL bytes that take no disk; over Edit's 10 MB limit.
    const large = workspace.path("large.bin");
    writeFileSync(large, "");
    truncateSync(large, 64 * 1024 * 1024);
    const target = workspace.path("target.txt");
    writeFileSync(target, "hello world\n");
    await using _swapper = await startSwapper("swap-file.ts", [target, small, large]);
    const outcomes: Record<string, number> = {};
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const { text } = await workspace.run("Edit", { file_path: target, old_string: "zzz-not-there", new_string: "y" }, { tools: [...CORE_TOOLS, editTool] });
      // Only a read of the large file's bytes can find its NULs; a size check refuses it unread.
      const kind = text.includes("NUL bytes") ? "loaded-large" : text.includes("over the 10.0 MB limit") ? "refused-by-size" : "small";
      outcomes[kind] = (outcomes[kind] ?? 0) + 1;
    }
    expect(outcomes["loaded-large"] ?? 0).toBe(0);
    expect(existsSync(target)).toBe(true);
  }, 60_000);
});
