#!/usr/bin/env bun
/**
 * Flag-read cost. Prints JSON: p50/p99 ns per read for the static implementation and for GrowthBook
 * with a realistic two-layer payload (API host on loopback + features file) full of targeting rules,
 * read the way the daemon reads (one attributes object per session, reused). Also the cost of a read
 * that misses the cache (a new attributes object every time: one flag evaluated through both layers),
 * which is what the first read of each flag in a session pays after a payload change, and of evaluating
 * all flags at once (values()/describe() on a fresh object). Target: p50 ≤ 5 µs per read.
 * Cached reads are far below timer resolution, so they are timed in batches and each sample is a
 * batch's mean; misses are timed one by one.
 * Usage: bun bench/flags.ts [--samples 2000] [--batch 1000]
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FLAG_KEYS } from "../src/flags/flag-definitions.ts";
import { GrowthBookFlags } from "../src/flags/growthbook-flags.ts";
import type { FlagAttributes, RuntimeFlags } from "../src/flags/runtime-flags.ts";
import { StaticFlags } from "../src/flags/static-flags.ts";
import { parseArgs } from "./lib/args.ts";
import { percentile, round } from "./lib/stats.ts";

const args = parseArgs(Bun.argv.slice(2), { samples: "value", batch: "value" });
const SAMPLES = Number(args.get("samples") ?? 2_000);
const BATCH = Number(args.get("batch") ?? 1_000);
const TARGET_P50_NS = 5_000;

/** The flags as an operator would target them, plus other applications' features sharing the SDK connection. */
function realisticPayload(variant: string) {
  const features: Record<string, unknown> = {
    tool_search_unsupported_models: {
      defaultValue: ["haiku"],
      rules: [
        { id: `${variant}-m1`, condition: { model: { $regex: "gpt-4o-mini|gemini-flash" } }, force: ["haiku", "gpt-4o-mini", "gemini-flash"] },
        { id: `${variant}-m2`, condition: { provider: "other" }, force: ["haiku", "llama"] },
      ],
    },
    tool_search_auto_percent: {
      defaultValue: 10,
      rules: [
        { id: `${variant}-a1`, condition: { tier: "lite" }, force: 5 },
        { id: `${variant}-a2`, condition: { tier: "pro", version: { $vgte: "0.1.0" } }, force: 15, coverage: 0.5, hashAttribute: "id" },
      ],
    },
    deferred_tools_delta: {
      defaultValue: false,
      rules: [{ id: `${variant}-d1`, condition: { clientName: { $in: ["claude-code", "opencode", "harness"] } }, force: true, coverage: 0.25, hashAttribute: "id" }],
    },
    prefetch_enabled: { defaultValue: true, rules: [{ id: `${variant}-p1`, condition: { model: { $regex: "haiku" } }, force: false }] },
    prefetch_max_results: { defaultValue: 3, rules: [{ id: `${variant}-p2`, condition: { tier: "pro" }, force: 4 }] },
    search_default_max_results: { defaultValue: 5, rules: [{ id: `${variant}-s1`, condition: { $or: [{ team: "search" }, { beta: true }] }, force: 8 }] },
    disabled_tools: {
      defaultValue: [],
      rules: [
        { id: `${variant}-k1`, condition: { version: { $vlt: "0.0.9" } }, force: ["Bash"] },
        { id: `${variant}-k2`, condition: { provider: "openai", model: { $regex: "^o\\d" } }, force: ["WebFetch"] },
      ],
    },
    mcp_call_timeout_ms: { defaultValue: 60_000, rules: [{ id: `${variant}-t1`, condition: { clientName: "batch-runner" }, force: 300_000 }] },
  };
  for (let index = 0; index < 40; index++) {
    features[`other_app_flag_${index}`] = { defaultValue: index % 2 === 0, rules: [{ condition: { country: "NZ" }, force: true }] };
  }
  return { features };
}

const sessions: FlagAttributes[] = Array.from({ length: 64 }, (_, index) =>
  Object.freeze({
    id: `user-${index}`,
    model: ["claude-opus-4", "claude-haiku-4", "gpt-4o-mini", "o3", "llama-3"][index % 5]!,
    provider: ["anthropic", "anthropic", "openai", "openai", "other"][index % 5]!,
    clientName: ["claude-code", "opencode", "harness", "batch-runner"][index % 4]!,
    team: index % 7 === 0 ? "search" : "core",
  }),
);

function cachedReads(flags: RuntimeFlags): { p50_ns: number; p99_ns: number } {
  const perRead: number[] = [];
  let sink = 0;
  for (let sample = 0; sample < SAMPLES; sample++) {
    const started = Bun.nanoseconds();
    for (let read = 0; read < BATCH; read++) {
      const value = flags.get(FLAG_KEYS[read % FLAG_KEYS.length]!, sessions[(sample + read) % sessions.length]);
      if (value === true) sink++;
    }
    perRead.push((Bun.nanoseconds() - started) / BATCH);
  }
  if (sink < 0) console.error(sink);
  return { p50_ns: round(percentile(perRead, 50), 1), p99_ns: round(percentile(perRead, 99), 1) };
}

/** `all`: every flag of a fresh attributes object (values()/describe() after a payload change), else one flag. */
function missedReads(flags: RuntimeFlags, all = false): { p50_ns: number; p99_ns: number } {
  const perRead: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample++) {
    const attributes = { ...sessions[sample % sessions.length] };
    const started = Bun.nanoseconds();
    if (all) flags.values(attributes);
    else flags.get(FLAG_KEYS[sample % FLAG_KEYS.length]!, attributes);
    perRead.push(Bun.nanoseconds() - started);
  }
  return { p50_ns: round(percentile(perRead, 50), 0), p99_ns: round(percentile(perRead, 99), 0) };
}

const dir = mkdtempSync(join(tmpdir(), "toolpool-bench-flags-"));
const file = join(dir, "features.json");
writeFileSync(file, JSON.stringify(realisticPayload("file")));
const remote = JSON.stringify(realisticPayload("remote"));
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(remote) });

const attributes = { tier: "pro", version: "0.1.0", id: "bench-host" };
const staticFlags = new StaticFlags({ features: ["PREFETCH"], values: { disabled_tools: ["Bash"] }, attributes });
const growthbook = new GrowthBookFlags({
  features: ["PREFETCH"],
  attributes,
  file,
  apiHost: `http://127.0.0.1:${server.port}`,
  clientKey: "sdk-bench",
  stateDir: dir,
});
await growthbook.settled();
const layers = growthbook.describe().payloads.map((payload) => `${payload.source}:${payload.state}`);

// Warm up the JIT on both paths before measuring.
cachedReads(staticFlags);
cachedReads(growthbook);
missedReads(growthbook);
missedReads(growthbook, true);

const staticResult = cachedReads(staticFlags);
const growthbookResult = cachedReads(growthbook);
const missResult = missedReads(growthbook);
const fullResult = missedReads(growthbook, true);
missedReads(growthbook, true);

console.log(
  JSON.stringify(
    {
      bench: "flags",
      samples: SAMPLES,
      reads_per_sample: BATCH,
      flags: FLAG_KEYS.length,
      sessions: sessions.length,
      payload: { layers, features_per_layer: Object.keys(realisticPayload("x").features).length },
      static: staticResult,
      growthbook: growthbookResult,
      growthbook_cache_miss: missResult,
      growthbook_all_flags_uncached: fullResult,
      target_p50_ns: TARGET_P50_NS,
      meets_target: staticResult.p50_ns <= TARGET_P50_NS && growthbookResult.p50_ns <= TARGET_P50_NS,
    },
    null,
    2,
  ),
);

await growthbook.close();
await staticFlags.close();
await server.stop(true);
