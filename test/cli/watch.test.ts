import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { WATCH_SESSION_ID, watchStatus } from "../../src/cli/watch.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startDaemonAt } from "../bridge/fixtures.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { sleepTool } from "../../src/builtin/sleep.ts";
import { manyDeferredTools } from "./fixtures.ts";

/** A stream standing in for a terminal (or a pipe), keeping what was written. */
function screen(tty: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY: tty, columns: 100 });
  let written = "";
  stream.on("data", (chunk: Buffer) => {
    written += chunk.toString();
  });
  return { stream, text: () => written };
}

function keyboard() {
  const raw: boolean[] = [];
  const stream = Object.assign(new PassThrough(), { isTTY: true, setRawMode: (on: boolean) => raw.push(on) });
  return { stream, raw };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

describe("toolpool status --watch", () => {
  test("piped: plain frames, no control codes; calls per second and tokens saved measured; stops on abort", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool, sleepTool, ...manyDeferredTools(12)] });
    const out = screen(false);
    const stop = new AbortController();
    const done = watchStatus({ socket: harness.socketPath, output: out.stream, input: new PassThrough(), intervalMs: 20, signal: stop.signal });
    await until(() => out.text().split("updated ").length > 2, "two frames");
    using client = await RawClient.open(harness.socketPath);
    for (let index = 0; index < 5; index++) await client.request("toolpool/call", { name: "Echo", input: { text: "x" } });
    await until(() => out.text().includes("calls     5 total"), "a frame after the calls");
    stop.abort();
    expect(await done).toBe(0);
    expect(out.text()).not.toContain("\u001b");
    // The second frame: the first has no call rate yet (it needs two samples).
    const frame = out.text().split("q or Ctrl-C quits\n\n")[1]!;
    expect(frame).toContain("sessions  0 active, 0 detached · connections 0");
    expect(frame).toMatch(/calls {5}0 total · 0\.0\/s · 0 in flight/);
    expect(frame).toMatch(/tokens {4}first request [\d.]+k? vs [\d.]+k? in full → [\d.]+k? saved \(\d+%, estimate: word pieces\)/);
    // The frame right after the calls shows a rate above zero.
    expect(out.text()).toMatch(/calls {5}5 total · (?!0\.0)[\d.]+\/s/);
    expect(frame).toContain("MCP servers: none configured");
    // The measurement session is one fixed session, not one per frame.
    expect(harness.daemon.sessions.get(WATCH_SESSION_ID)).toBeDefined();
    // Once the watch's connection is gone: the raw client's session, and the watch's, detached.
    await until(() => harness.daemon.sessions.counts().active === 1, "the watch to disconnect");
    expect(harness.daemon.sessions.counts()).toEqual({ active: 1, detached: 1 });
  });

  test("on a terminal: alternate screen, redraw in place, raw keys; `q` quits and restores the terminal", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    const out = screen(true);
    const keys = keyboard();
    const done = watchStatus({ socket: harness.socketPath, output: out.stream, input: keys.stream, intervalMs: 20 });
    await until(() => out.text().split("updated ").length > 2, "two frames");
    keys.stream.write("q");
    expect(await done).toBe(0);
    const text = out.text();
    expect(text.startsWith("\u001b[?1049h\u001b[?25l\u001b[H")).toBe(true);
    expect(text).toContain("\u001b[K\n");
    expect(text.endsWith("\u001b[J\u001b[?25h\u001b[?1049l")).toBe(true);
    expect(keys.raw).toEqual([true, false]);
  });

  test("Ctrl-C quits as well; no daemon yet: it says so, and shows the daemon once one starts", async () => {
    const socketPath = join(tempSocketDir(), "w.sock");
    const out = screen(true);
    const keys = keyboard();
    const done = watchStatus({ socket: socketPath, output: out.stream, input: keys.stream, intervalMs: 20 });
    await until(() => out.text().includes(`no daemon is answering on ${socketPath}`), "the not-running frame");
    const daemon = await startDaemonAt(socketPath);
    try {
      await until(() => out.text().includes("toolpool 0.1.0 (source)"), "a frame from the new daemon");
      keys.stream.write("\u0003");
      expect(await done).toBe(0);
    } finally {
      await daemon.stop("test finished");
    }
  });
});
