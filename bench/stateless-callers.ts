/**
 * Head-of-line blocking between stateless (2026-07-28) callers of one HTTP bridge, on the built
 * binary (`serve` + `mcp --http`). Caller A runs Bash `sleep N`; while it runs, caller B (another
 * `clientInfo`) and then A itself run Bash `echo`. Prints JSON: each echo's latency (median and max
 * over the runs). With one daemon session shared by every stateless caller, B's echo waited for
 * A's sleep; with a session per caller whose calls run as they come, neither waits.
 *
 *   ./node_modules/.bin/bun run bench/stateless-callers.ts [--tier pro] [--runs 5] [--sleep 2]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { tier: { type: "string", default: "pro" }, runs: { type: "string", default: "5" }, sleep: { type: "string", default: "2" } } });
const binary = join(import.meta.dir, "..", "dist", `toolpool-${values.tier}`);
const scratch = mkdtempSync(join(tmpdir(), "tp-callers-"));
const env = { ...process.env, HOME: scratch, XDG_RUNTIME_DIR: scratch, XDG_STATE_HOME: join(scratch, "state"), XDG_CONFIG_HOME: join(scratch, "config") };
const socketPath = join(scratch, "d.sock");

async function waitForLine(stream: ReadableStream<Uint8Array>, pattern: RegExp, what: string): Promise<RegExpMatchArray> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const chunk = await reader.read();
    if (chunk.done) break;
    seen += decoder.decode(chunk.value, { stream: true });
    const match = seen.match(pattern);
    if (match) {
      void (async () => {
        while (!(await reader.read()).done);
      })();
      return match;
    }
  }
  throw new Error(`${what} did not start: ${seen}`);
}

const daemon = Bun.spawn([binary, "serve", "--socket", socketPath], { env, stdout: "ignore", stderr: "pipe" });
await waitForLine(daemon.stderr, /"listening"/, "the daemon");
const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
const port = probe.port;
probe.stop(true);
const bridge = Bun.spawn([binary, "mcp", "--socket", socketPath, "--http", `127.0.0.1:${port}`], { env, stdout: "pipe", stderr: "ignore" });
const url = (await waitForLine(bridge.stdout, /on (http:\/\/\S+\/mcp\/\S+)/, "the HTTP bridge"))[1]!;

const REVISION = "2026-07-28";
let nextId = 1;
async function bash(client: string, command: string): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": REVISION, "mcp-method": "tools/call", "mcp-name": "Bash" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: nextId++,
      method: "tools/call",
      params: {
        name: "Bash",
        arguments: { command },
        _meta: { "io.modelcontextprotocol/protocolVersion": REVISION, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: client, version: "1" } },
      },
    }),
  });
  const text = await response.text();
  return { ms: performance.now() - started, text };
}

const sleepSeconds = Number(values.sleep);
const runs = Number(values.runs);
const other: number[] = [];
const same: number[] = [];
const sleeps: number[] = [];
try {
  // Warm both callers' links (and the Bash sandbox probe) first.
  for (const client of ["caller-a", "caller-b"]) {
    const warm = await bash(client, "true");
    if (!warm.text.includes('"resultType":"complete"')) throw new Error(`warm-up failed: ${warm.text.slice(0, 500)}`);
  }
  for (let run = 0; run < runs; run++) {
    const slow = bash("caller-a", `sleep ${sleepSeconds}`);
    // Give A's call time to start in the daemon (this is a benchmark: the figure is B's wait).
    await Bun.sleep(200);
    const [b, a2] = await Promise.all([bash("caller-b", "echo other"), bash("caller-a", "echo same")]);
    if (!b.text.includes("other") || !a2.text.includes("same")) throw new Error(`echo failed: ${b.text.slice(0, 300)} ${a2.text.slice(0, 300)}`);
    other.push(b.ms);
    same.push(a2.ms);
    sleeps.push((await slow).ms);
  }
} finally {
  bridge.kill("SIGTERM");
  await bridge.exited;
  daemon.kill("SIGTERM");
  await daemon.exited;
  rmSync(scratch, { recursive: true, force: true });
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const summary = (values: number[]) => ({ medianMs: Math.round(median(values)), maxMs: Math.round(Math.max(...values)) });
process.stdout.write(
  `${JSON.stringify({ bench: "stateless-callers", tier: values.tier, runs, sleepMs: sleepSeconds * 1000, sleepCall: summary(sleeps), otherCallerEcho: summary(other), sameCallerEcho: summary(same) })}\n`,
);
