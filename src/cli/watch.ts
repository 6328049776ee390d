/**
 * `toolpool status --watch`: the daemon's state redrawn every second until Ctrl-C or `q`.
 * On a terminal it draws in place (alternate screen, cursor home, clear to end of line) and reads
 * keys in raw mode; piped, it prints one plain frame a second with no control codes at all.
 *
 * Tokens saved are measured here, not in the daemon: the watch's own session assembles the pool
 * twice — deferred (proxy) and in full (standard) — whenever the pool's size changes, and shows
 * the difference the deferral makes to the first request (tools array plus announcement). That session has a fixed id, so repeated
 * watches reuse one session instead of leaving new ones behind.
 */
import type { Readable, Writable } from "node:stream";
import { DaemonError, NotRunningError, ToolpoolClient } from "../client/client.ts";
import type { ServerSummary } from "../protocol/methods.ts";
import { onClosedOutput } from "./closed-output.ts";
import { locateDaemon } from "../client/socket-discovery.ts";
import { ExitCode } from "./exit-codes.ts";
import { renderWatch, type TokenFacts, type WatchSnapshot } from "./watch-view.ts";
import { UNRECORDED_CLIENT_NAME } from "../usage/daemon-usage.ts";
import { firstRequestTokens, TOKEN_COUNTER } from "../usage/token-estimate.ts";
import { escapeTerminal } from "../runtime/terminal-text.ts";

export const WATCH_SESSION_ID = "toolpool-status-watch";
const METHOD_NOT_FOUND = -32601;
const CTRL_C = "\u0003";
const ESC = "\u001b[";

export interface WatchOptions {
  socket?: string;
  output?: Writable & { isTTY?: boolean; columns?: number };
  input?: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  intervalMs?: number;
  /** Stops the watch (tests); Ctrl-C, `q` and SIGINT/SIGTERM stop it too. */
  signal?: AbortSignal;
}

export async function watchStatus(options: WatchOptions = {}): Promise<number> {
  const output = options.output ?? process.stdout;
  const input = options.input ?? process.stdin;
  const tty = output.isTTY === true;
  const { socketPath } = await locateDaemon({ flag: options.socket });
  const stop = new AbortController();
  options.signal?.addEventListener("abort", () => stop.abort(), { once: true });
  const release = listenForQuit(input, tty, () => stop.abort());
  // `status --watch | head -3`: the reader is gone, stop drawing.
  onClosedOutput(output, () => stop.abort());
  if (tty) output.write(`${ESC}?1049h${ESC}?25l`);
  let client: ToolpoolClient | undefined;
  const probe = new Probe();
  try {
    while (!stop.signal.aborted) {
      let lines: string[];
      try {
        client = client && !client.closed ? client : await ToolpoolClient.connect(socketPath, 1_000);
        lines = renderWatch(await probe.snapshot(client), output.columns ?? 100);
      } catch (error) {
        // The daemon is not there or went away mid-frame: say so and keep trying; anything else is a fault.
        const lost = error instanceof NotRunningError || client?.closed === true;
        if (!lost) throw error;
        client = undefined;
        probe.reset();
        lines = [`toolpool: no daemon is answering on ${socketPath} — retrying every second`, "", "q or Ctrl-C quits"];
      }
      lines = lines.map((line) => escapeTerminal(line));
      output.write(tty ? `${ESC}H${lines.map((line) => `${line}${ESC}K`).join("\n")}\n${ESC}J` : `${lines.join("\n")}\n\n`);
      await sleep(options.intervalMs ?? 1_000, stop.signal);
    }
  } finally {
    release();
    client?.close();
    if (tty) output.write(`${ESC}?25h${ESC}?1049l`);
  }
  return ExitCode.Ok;
}

/** Collects one snapshot; remembers what it needs between frames (call rate, token measurement). */
class Probe {
  #previous: { calls: number; at: number } | undefined;
  #tokens: { toolCount: number | undefined; facts: TokenFacts } | undefined;
  #hasServers = true;

  reset(): void {
    this.#previous = undefined;
    this.#tokens = undefined;
  }

  async snapshot(client: ToolpoolClient): Promise<WatchSnapshot> {
    // Measured before the first status, so that status already counts the watch's own session.
    this.#tokens ??= { toolCount: undefined, facts: await measureTokens(client) };
    const [status, tools, servers] = await Promise.all([client.status(), client.tools(), this.#servers(client)]);
    const now = performance.now();
    const previous = this.#previous;
    this.#previous = { calls: status.calls.total, at: now };
    const callsPerSecond = previous && now > previous.at ? ((status.calls.total - previous.calls) * 1000) / (now - previous.at) : undefined;
    if (this.#tokens.toolCount === undefined) this.#tokens.toolCount = status.tools.total;
    else if (this.#tokens.toolCount !== status.tools.total) this.#tokens = { toolCount: status.tools.total, facts: await measureTokens(client) };
    return {
      status,
      tools: tools.tools,
      ...(servers && { servers }),
      callsPerSecond,
      tokens: this.#tokens.facts,
      own: { sessions: 1, connections: 1 },
      at: new Date(),
    };
  }

  async #servers(client: ToolpoolClient): Promise<readonly ServerSummary[] | undefined> {
    if (!this.#hasServers) return undefined;
    try {
      return (await client.servers()).servers;
    } catch (error) {
      if (!(error instanceof DaemonError && error.code === METHOD_NOT_FOUND)) throw error;
      this.#hasServers = false;
      return undefined;
    }
  }
}

/**
 * The first request in full vs deferred, from the watch's session: the tools array plus the
 * announcement, counted as `toolpool stats` counts them (one estimate, named).
 */
async function measureTokens(client: ToolpoolClient): Promise<TokenFacts> {
  const count = async (toolSearch: string, delivery: "proxy" | "standard") => {
    await client.session({ sessionId: WATCH_SESSION_ID, toolSearch, delivery, clientName: UNRECORDED_CLIENT_NAME, prefetch: false });
    const assembled = await client.assemble({ sessionId: WATCH_SESSION_ID, messages: [] });
    const announcement = assembled.announcement as { text?: string } | null | undefined;
    return firstRequestTokens(assembled.tools, announcement?.text);
  };
  const full = await count("false", "standard");
  const lean = await count("true", "proxy");
  return { full, lean, counter: TOKEN_COUNTER.label };
}

/** Quits on `q` or Ctrl-C (raw keys on a terminal) and on SIGINT/SIGTERM; returns the undo. */
function listenForQuit(input: NonNullable<WatchOptions["input"]>, tty: boolean, quit: () => void): () => void {
  const raw = tty && input.isTTY === true && typeof input.setRawMode === "function";
  const onData = (chunk: Buffer | string) => {
    const text = chunk.toString();
    if (text.includes("q") || text.includes("Q") || text.includes(CTRL_C)) quit();
  };
  if (raw) {
    input.setRawMode?.(true);
    input.on("data", onData);
    input.resume();
  }
  process.on("SIGINT", quit);
  process.on("SIGTERM", quit);
  return () => {
    process.off("SIGINT", quit);
    process.off("SIGTERM", quit);
    if (raw) {
      input.off("data", onData);
      input.setRawMode?.(false);
      input.pause();
    }
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
