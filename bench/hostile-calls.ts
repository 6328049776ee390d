#!/usr/bin/env bun
/**
 * Hostile-call benchmark: while one client runs a hostile or heavy file-tool call on the compiled
 * daemon, a second client pings in a closed loop; prints JSON with the call's duration and the pings'
 * p50/p99/max for each scenario, and how long SIGTERM takes during a hostile Grep. The issue's target
 * is ping p99 < 50 ms during every attack and SIGTERM within 10 s. `bash-1000-rules-64kb-commands`: a
 * session with 1,000 deny rules sends three 64 KiB commands at once (issue 23).
 * Usage: bun bench/hostile-calls.ts [--tier pro] [--binary PATH] [--call-timeout-seconds 30] [--only NAME]
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { NdjsonClient } from "./lib/ndjson-client.ts";

const { values } = parseArgs({
  options: {
    tier: { type: "string", default: "pro" },
    binary: { type: "string" },
    "call-timeout-seconds": { type: "string", default: "30" },
    only: { type: "string" },
  },
});
const binary = resolve(values.binary ?? join(import.meta.dir, "..", "dist", `toolpool-${values.tier}`));
const callTimeoutMs = Number(values["call-timeout-seconds"]) * 1000;
const workspace = mkdtempSync("/tmp/tpbench-hostile-ws-");
const socketDir = mkdtempSync("/tmp/tpbench-hostile-");

/** One NDJSON connection; answers are matched by id. */

async function startDaemon(name: string) {
  const socketPath = join(socketDir, `${name}.sock`);
  const child = Bun.spawn([binary, "serve", "--socket", socketPath], { cwd: workspace, stdout: "ignore", stderr: "ignore" });
  for (const deadline = performance.now() + 10_000; ; ) {
    const client = await NdjsonClient.open(socketPath).catch(() => undefined);
    if (client) return { child, socketPath, client };
    if (performance.now() > deadline) throw new Error("the daemon did not start");
    await Bun.sleep(5);
  }
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

const round = (value: number) => Math.round(value * 100) / 100;

/** 1,000 session deny rules of ~900 characters, and three 64 KiB commands (issue 23: 95.6 s per call before). */
const HEAVY_RULES = Array.from({ length: 1000 }, (_, index) => `Bash(${"*x".repeat(450)}${index}*)`);
const HEAVY_COMMANDS = [`echo ${"ab".repeat(32_000)}`, `echo ${"word ".repeat(13_000)}`, `echo ${"$(a) ".repeat(1_900)}${"b".repeat(50_000)}`];

async function heavyRuleCalls(client: NdjsonClient): Promise<Record<string, unknown> | undefined> {
  const session = await client.request("toolpool/session", { permissions: { deny: HEAVY_RULES } });
  const sessionId = (session.result as { sessionId: string }).sessionId;
  const answers = await Promise.all(HEAVY_COMMANDS.map((command) => client.request("toolpool/call", { sessionId, name: "Bash", input: { command } })));
  return answers.at(-1);
}

async function scenario(name: string, tool: string, input: Record<string, unknown>, work?: (client: NdjsonClient) => Promise<Record<string, unknown> | undefined>) {
  if (values.only !== undefined && values.only !== name) return undefined;
  const daemon = await startDaemon(name);
  const pinger = await NdjsonClient.open(daemon.socketPath);
  // Warm up first (lazy modules, the first session), so the figures are the attack's, not start-up's.
  await daemon.client.request("toolpool/call", { name: "Read", input: { file_path: join(workspace, "warm.txt") } });
  await pinger.request("ping");
  const pings: number[] = [];
  let done = false;
  let outstandingSince: number | undefined;
  const pinging = (async () => {
    while (!done) {
      outstandingSince = performance.now();
      await pinger.request("ping");
      pings.push(performance.now() - outstandingSince);
      outstandingSince = undefined;
    }
  })();
  const started = performance.now();
  const answer = await Promise.race([
    work ? work(daemon.client) : daemon.client.request("toolpool/call", { name: tool, input }),
    Bun.sleep(callTimeoutMs).then(() => undefined),
  ]);
  const callMs = performance.now() - started;
  done = true;
  await Promise.race([pinging, Bun.sleep(1000)]);
  // A ping still unanswered counts with the time it has waited so far (a blocked daemon answers none).
  if (outstandingSince !== undefined) pings.push(performance.now() - outstandingSince);
  daemon.child.kill("SIGKILL");
  await daemon.child.exited;
  pings.sort((a, b) => a - b);
  const result = answer?.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
  return {
    name,
    callMs: round(callMs),
    timedOut: answer === undefined,
    isError: result?.isError ?? null,
    answer: result?.content?.[0]?.text?.slice(0, 100) ?? null,
    pings: pings.length,
    pingP50Ms: round(percentile(pings, 0.5)),
    pingP99Ms: round(percentile(pings, 0.99)),
    pingMaxMs: round(pings.at(-1) ?? Number.NaN),
  };
}

async function sigtermDuringHeavyRules() {
  if (values.only !== undefined && values.only !== "sigterm-during-1000-rules-64kb-commands") return undefined;
  const daemon = await startDaemon("sigterm-rules");
  const session = await daemon.client.request("toolpool/session", { permissions: { deny: HEAVY_RULES } });
  const sessionId = (session.result as { sessionId: string }).sessionId;
  for (const command of HEAVY_COMMANDS) void daemon.client.request("toolpool/call", { sessionId, name: "Bash", input: { command } });
  await Promise.race([daemon.client.request("ping"), Bun.sleep(2_000)]);
  const started = performance.now();
  daemon.child.kill("SIGTERM");
  const exited = await Promise.race([daemon.child.exited, Bun.sleep(30_000).then(() => "still running after 30 s")]);
  if (typeof exited === "string") daemon.child.kill("SIGKILL");
  return { name: "sigterm-during-1000-rules-64kb-commands", exitMs: round(performance.now() - started), exit: exited };
}

async function sigtermDuringGrep() {
  if (values.only !== undefined && values.only !== "sigterm-during-catastrophic-grep") return undefined;
  const daemon = await startDaemon("sigterm");
  void daemon.client.request("toolpool/call", { name: "Grep", input: { pattern: "^(a+)+$", path: "redos", output_mode: "count" } });
  // The ping is answered after the call was read, so the signal lands while the Grep runs.
  await Promise.race([daemon.client.request("ping"), Bun.sleep(2_000)]);
  const started = performance.now();
  daemon.child.kill("SIGTERM");
  const exited = await Promise.race([daemon.child.exited, Bun.sleep(30_000).then(() => "still running after 30 s")]);
  if (typeof exited === "string") daemon.child.kill("SIGKILL");
  return { name: "sigterm-during-catastrophic-grep", exitMs: round(performance.now() - started), exit: exited };
}

// The trees: 20 files of lines a backtracking engine needs ~2^28 steps on, 1,000 ordinary 64 KB
// files, 50,000 empty files in one directory, and one 5 MB file that is a single line.
writeFileSync(join(workspace, "warm.txt"), "warm\n");
mkdirSync(join(workspace, "redos"));
for (let index = 0; index < 20; index++) writeFileSync(join(workspace, "redos", `f${index}.txt`), `${"a".repeat(28)}!\n`.repeat(100));
mkdirSync(join(workspace, "tree"));
const line = "const value = computeSomething(input, options); // an ordinary line of code\n";
for (let index = 0; index < 1000; index++) {
  const dir = join(workspace, "tree", `d${index % 20}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `f${index}.ts`), line.repeat(Math.floor((64 * 1024) / line.length)));
}
mkdirSync(join(workspace, "wide"));
for (let index = 0; index < 50_000; index++) writeFileSync(join(workspace, "wide", `file-${index}.txt`), "");
mkdirSync(join(workspace, "long"));
writeFileSync(join(workspace, "long", "one-line.js"), "x".repeat(5 * 1024 * 1024 - 1) + "\n");

const results = [
  await scenario("read-400kb-path", "Read", { file_path: "/a".repeat(200_000) }),
  await scenario("catastrophic-grep", "Grep", { pattern: "^(a+)+$", path: "redos", output_mode: "count" }),
  await scenario("grep-64mb-tree", "Grep", { pattern: "needle\\d+", path: "tree", output_mode: "count" }),
  await scenario("glob-50k-files-one-directory", "Glob", { pattern: "*.md", path: "wide" }),
  await scenario("grep-50k-files-one-directory", "Grep", { pattern: "needle", path: "wide" }),
  await scenario("grep-5mb-single-line", "Grep", { pattern: "needle\\d+", path: "long", output_mode: "count" }),
  await sigtermDuringGrep(),
  await scenario("bash-1000-rules-64kb-commands", "Bash", {}, heavyRuleCalls),
  await sigtermDuringHeavyRules(),
];
console.log(JSON.stringify({ binary, results: results.filter((result) => result !== undefined) }, null, 2));
