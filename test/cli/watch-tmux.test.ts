// test-plan: one tier — the watch view in tmux, no feature() on its path.
/**
 * `toolpool status --watch` in a real terminal: tmux runs it in a detached 110×30 pane, the test
 * reads the pane with capture-pane, presses `q` with send-keys, and checks the pane's process
 * exited 0 and left the alternate screen. Skipped where tmux is not installed (apt-get install tmux).
 * Set TOOLPOOL_PRINT_CAPTURE=1 to print the captured pane.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers/binary.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { FIXTURE_SERVER } from "../mcp/helpers.ts";
import { manyDeferredTools } from "./fixtures.ts";
import { RawClient } from "../helpers/raw-client.ts";

const tmuxPath = Bun.which("tmux");

async function tmux(server: string, ...args: string[]): Promise<{ code: number; stdout: string }> {
  const child = Bun.spawn([tmuxPath!, "-L", server, "-f", "/dev/null", ...args], { env: { ...process.env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return { code, stdout };
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

async function until<T>(probe: () => Promise<T>, accept: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await Bun.sleep(20);
  }
}

test.skipIf(tmuxPath === null)("status --watch in tmux: live frame with the MCP server, q quits with exit 0", async () => {
  await using harness = await startTestDaemon({
    builtins: [echoTool, ...manyDeferredTools(12)],
    config: { mcpServers: { fixture: { command: process.execPath, args: [FIXTURE_SERVER] } } },
  });
  const server = `toolpool-test-${process.pid}`;
  const watch = [process.execPath, join(REPO_ROOT, "src", "main.ts"), "status", "--watch", "--socket", harness.socketPath];
  // The exit code goes to a file: tmux's own pane_dead_status is not always filled in under load.
  const exitFile = join(harness.dir, "watch.exit");
  const command = ["sh", "-c", `${watch.map(shellQuote).join(" ")}; echo $? > ${shellQuote(exitFile)}`];
  try {
    expect((await tmux(server, "new-session", "-d", "-s", "watch", "-x", "110", "-y", "30", "--", ...command)).code).toBe(0);
    await tmux(server, "set-option", "-t", "watch", "remain-on-exit", "on");
    const capture = async () => (await tmux(server, "capture-pane", "-p", "-t", "watch")).stdout;
    await until(capture, (text) => /fixture\s+● connected/.test(text), "a frame with the connected server");
    using client = await RawClient.open(harness.socketPath);
    for (let index = 0; index < 3; index++) await client.request("toolpool/call", { name: "Echo", input: { text: "tmux" } });
    const pane = await until(capture, (text) => /calls {5}3 total · \d+\.\d\/s/.test(text), "a frame with the calls");
    if (process.env.TOOLPOOL_PRINT_CAPTURE) console.log(pane);
    const lines = pane.split("\n");
    expect(lines[0]).toMatch(/^toolpool \d+\.\d+\.\d+ \(source\) · pid \d+ · up \d+s · /);
    expect(lines.slice(1, 5).map((line) => line.replace(/[\d.]+k?/g, "N"))).toEqual([
      "sessions  N active, N detached · connections N · memory N MiB",
      "tools     N (N built-in, N MCP) · N core, N deferred",
      "calls     N total · N/s · N in flight",
      "tokens    first request N vs N in full → N saved (N%, estimate: word pieces)",
    ]);
    expect(lines.slice(6, 9).map((line) => line.replace(/\s+/g, " ").trim())).toEqual([
      "MCP servers (1)",
      "NAME STATE TOOLS RESTARTS NOTE",
      expect.stringMatching(/^fixture ● connected \d+ 0$/),
    ]);
    expect(pane).toContain("q or Ctrl-C quits");

    await tmux(server, "send-keys", "-t", "watch", "q");
    const code = await until(async () => (await Bun.file(exitFile).exists() ? (await Bun.file(exitFile).text()).trim() : ""), (text) => text !== "", "the watch to exit");
    expect(code).toBe("0");
    // Back on the normal screen: the live view is gone from the pane.
    expect(await capture()).not.toContain("q or Ctrl-C quits");
  } finally {
    await tmux(server, "kill-server");
  }
}, 30_000);
