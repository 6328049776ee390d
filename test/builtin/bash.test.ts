/** Bash: output, exit status, working directory, time limit, cancellation and the output cap. */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { BASH_OUTPUT_HEAD_BYTES, BASH_OUTPUT_TAIL_BYTES, createBashTool } from "../../src/builtin/bash.ts";
import { resultText } from "../../src/tool/result.ts";
import { makeWorkspace, waitFor } from "./fixture.ts";

/** Alive means running: a zombie waiting for its (non-reaping) parent counts as dead. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

function readPid(path: string): number {
  return Number.parseInt(readFileSync(path, "utf8").trim(), 10);
}

// Writes the pids of a backgrounded grandchild and of bash itself, then blocks.
const LONG_RUNNING = "sleep 300 & echo $! > bg.pid; echo $$ > leader.pid; sleep 300";

describe("Bash", () => {
  test("reports stdout, stderr and a non-zero exit code without calling it a tool error", async () => {
    using workspace = makeWorkspace();
    const result = await workspace.call("Bash", { command: "echo out; echo err >&2; exit 3", description: "Exit three" });
    expect(result).toEqual({
      content: [{ type: "text", text: "out\n[stderr]\nerr\nExit code: 3" }],
      isError: false,
      structuredContent: { exitCode: 3, signal: null },
    });
  });

  test("runs in the session's cwd, with stdin closed", async () => {
    using workspace = makeWorkspace();
    const sub = workspace.path("sub");
    workspace.file("sub/.keep", "");
    expect(await workspace.run("Bash", { command: "pwd" }, { context: { cwd: sub } })).toEqual({
      text: `${sub}\nExit code: 0`,
      isError: false,
    });
    expect(await workspace.run("Bash", { command: "cat" })).toEqual({ text: "(no output)\nExit code: 0", isError: false });
  });

  test("a missing working directory is a clear error, not a spawn failure", async () => {
    using workspace = makeWorkspace();
    const cwd = workspace.path("gone");
    expect(await workspace.run("Bash", { command: "true" }, { context: { cwd } })).toEqual({
      text: `The working directory ${cwd} does not exist, so the command was not run.`,
      isError: true,
    });
  });

  test("death by signal is reported", async () => {
    using workspace = makeWorkspace();
    const result = await workspace.call("Bash", { command: "kill -SEGV $$" });
    expect(result).toEqual({
      content: [{ type: "text", text: "(no output)\nCommand was killed by signal SIGSEGV." }],
      isError: false,
      structuredContent: { exitCode: null, signal: "SIGSEGV" },
    });
  });

  test("the time limit kills the whole process group, backgrounded grandchild included", async () => {
    using workspace = makeWorkspace();
    const { text, isError } = await workspace.run("Bash", { command: `echo started; ${LONG_RUNNING}`, timeout: 1000 });
    expect({ text, isError }).toEqual({
      text: "started\nCommand timed out after 1 s; it and the processes still under it were stopped.",
      isError: true,
    });
    const pids = [readPid(workspace.path("bg.pid")), readPid(workspace.path("leader.pid"))];
    await waitFor(() => pids.every((pid) => !isAlive(pid)), "the process group to die");
  });

  test("a grandchild that ignores SIGTERM is killed after the grace period", async () => {
    using workspace = makeWorkspace();
    const tool = createBashTool({ killGraceMs: 50 });
    const command = `(trap '' TERM; exec sleep 300) & echo $! > bg.pid; sleep 300`;
    const { isError } = await workspace.run("Bash", { command, timeout: 1000 }, { tools: [tool] });
    expect(isError).toBe(true);
    const pid = readPid(workspace.path("bg.pid"));
    await waitFor(() => !isAlive(pid), "the SIGTERM-proof grandchild to be killed");
  });

  test("cancellation kills the process group; the pipeline answers at once", async () => {
    using workspace = makeWorkspace();
    const controller = new AbortController();
    const pending = workspace.run("Bash", { command: LONG_RUNNING }, { context: { signal: controller.signal } });
    await waitFor(() => existsSync(workspace.path("leader.pid")), "the command to start");
    controller.abort();
    expect(await pending).toEqual({ text: "Bash was cancelled.", isError: true });
    const pids = [readPid(workspace.path("bg.pid")), readPid(workspace.path("leader.pid"))];
    await waitFor(() => pids.every((pid) => !isAlive(pid)), "the process group to die");
  });

  test("the tool's own result for a cancelled command keeps the output so far", async () => {
    using workspace = makeWorkspace();
    const controller = new AbortController();
    const tool = createBashTool();
    const pending = tool.call({ command: `echo partial; ${LONG_RUNNING}` }, workspace.context({ signal: controller.signal }));
    await waitFor(() => existsSync(workspace.path("leader.pid")), "the command to start");
    controller.abort();
    const result = await pending;
    expect({ text: resultText(result), isError: result.isError }).toEqual({
      text: "partial\nCommand was cancelled; it and the processes still under it were stopped.",
      isError: true,
    });
  });

  test("an already-cancelled call never starts the command", async () => {
    using workspace = makeWorkspace();
    const controller = new AbortController();
    controller.abort();
    const result = await workspace.run("Bash", { command: "touch ran" }, { context: { signal: controller.signal } });
    expect(result).toEqual({ text: "Bash was cancelled before it started.", isError: true });
    expect(existsSync(workspace.path("ran"))).toBe(false);
  });

  test("a background job holding the pipes does not hold the call", async () => {
    using workspace = makeWorkspace();
    const { text, isError } = await workspace.run("Bash", { command: "sleep 300 & echo $! > bg.pid; echo done" });
    const pid = readPid(workspace.path("bg.pid"));
    try {
      expect({ text, isError }).toEqual({ text: "done\nExit code: 0", isError: false });
      expect(isAlive(pid)).toBe(true);
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  test("large output keeps its beginning and end, with the omitted byte count", async () => {
    using workspace = makeWorkspace();
    const count = 40_000;
    const full = Array.from({ length: count }, (_, index) => `${index + 1}\n`).join("");
    const { text, isError } = await workspace.run("Bash", { command: `seq 1 ${count}` });
    const omitted = full.length - BASH_OUTPUT_HEAD_BYTES - BASH_OUTPUT_TAIL_BYTES;
    const expected =
      `${full.slice(0, BASH_OUTPUT_HEAD_BYTES)}\n[... ${omitted.toLocaleString("en-US")} bytes of output omitted ...]\n` +
      `${full.slice(full.length - BASH_OUTPUT_TAIL_BYTES).replace(/\n+$/, "")}\nExit code: 0`;
    expect(isError).toBe(false);
    expect(text).toBe(expected);
  });

  test("the permission subject is the command, so Bash(pattern) rules apply", async () => {
    using workspace = makeWorkspace();
    const permissions = { mode: "default" as const, allow: ["Bash(echo *)"], deny: ["Bash(rm *)"] };
    expect(await workspace.run("Bash", { command: "echo ok" }, { permissions })).toEqual({ text: "ok\nExit code: 0", isError: false });
    expect(await workspace.run("Bash", { command: "rm -rf x" }, { permissions })).toEqual({
      text: 'Permission denied for Bash: denied by the rule "Bash(rm *)".',
      isError: true,
    });
    expect((await workspace.run("Bash", { command: "touch y" }, { permissions })).text).toBe(
      "Permission denied for Bash: no allow rule of the daemon's config covers it (it runs touch y).",
    );
  });
});
