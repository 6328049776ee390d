#!/usr/bin/env bun
/**
 * Prefetch does not slow the turn: over the socket of the compiled binary, each iteration sends
 * `toolpool/turnStarted` (a notification) with a new user message, then times the round trip of
 * `toolpool/prefetch` for the same transcript — answered from the precomputed result — and, for
 * comparison, a `toolpool/prefetch` with no turn start before it (computed on demand). Prints JSON.
 * Usage: bun bench/prefetch-latency.ts [--tier pro] [--iterations 2000]
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ToolpoolClient } from "../src/client/client.ts";
import { percentile, round } from "./socket/load.ts";

const { values } = parseArgs({ options: { tier: { type: "string", default: "pro" }, iterations: { type: "string", default: "2000" } } });
const iterations = Number(values.iterations);
const binary = join(import.meta.dir, "..", "dist", `toolpool-${values.tier}`);
const socketPath = join(mkdtempSync("/tmp/tpbench-"), "p.sock");
const daemon = Bun.spawn([binary, "serve", "--socket", socketPath], { stdout: "ignore", stderr: "ignore" });
let client: ToolpoolClient | undefined;
for (let attempt = 0; attempt < 500 && !client; attempt++) {
  client = await ToolpoolClient.connect(socketPath).catch(async () => {
    await Bun.sleep(10);
    return undefined;
  });
}
if (!client) throw new Error("the daemon did not start");

const topics = ["fetch this web page", "edit the notebook cell", "keep a todo list", "wait a few seconds", "schedule a reminder every morning", "trigger the deploy hook"];
const precomputed: number[] = [];
const onDemand: number[] = [];
let answered = 0;
for (let index = 0; index < iterations; index++) {
  // A fresh session per iteration: prefetch never suggests a tool twice in one session.
  const { sessionId } = await client.session({ model: "gpt-5", delivery: "proxy" });
  const messages = [
    { role: "user", content: "hello" },
    { role: "assistant", content: "hi" },
    { role: "user", content: `${topics[index % topics.length]} (${index})` },
  ];
  client.notify("toolpool/turnStarted", { sessionId, messages });
  let start = performance.now();
  const result = await client.request("toolpool/prefetch", { sessionId, messages });
  precomputed.push(performance.now() - start);
  if (result.precomputed && result.suggestions.length > 0) answered++;
  const { sessionId: other } = await client.session({ model: "gpt-5", delivery: "proxy" });
  start = performance.now();
  await client.request("toolpool/prefetch", { sessionId: other, messages });
  onDemand.push(performance.now() - start);
}
client.close();
daemon.kill("SIGTERM");
await daemon.exited;

const sorted = (samples: number[]) => [...samples].sort((a, b) => a - b);
console.log(
  JSON.stringify(
    {
      benchmark: "prefetch-latency",
      tier: values.tier,
      iterations,
      answeredFromPrecomputed: answered,
      precomputedRoundTripMs: { p50: round(percentile(sorted(precomputed), 0.5), 4), p99: round(percentile(sorted(precomputed), 0.99), 4) },
      onDemandRoundTripMs: { p50: round(percentile(sorted(onDemand), 0.5), 4), p99: round(percentile(sorted(onDemand), 0.99), 4) },
      targetPrecomputedP50Ms: 1,
    },
    null,
    2,
  ),
);
