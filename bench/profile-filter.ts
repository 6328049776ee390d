#!/usr/bin/env bun
/**
 * What a tool profile costs a session. Prints JSON: for pools of 1k, 10k and 50k MCP tools (plus the
 * built-ins) and a profile of six entries (a group, names, a server, two globs, an exclude), the
 * time to build the session's filtered tools array (once per session and pool change; the session
 * keeps it until either changes) and to look one name up
 * through the profile (once per call and per search candidate). Beside each, the same pass with a
 * trivial predicate (`name.length > 0`), so a loaded machine's numbers can still be read: the target
 * is the profile's array pass within 4× that baseline, and a lookup under 2 µs at 10k tools.
 * Usage: bun bench/profile-filter.ts [--samples 200]
 */
import { z } from "zod";
import { assemblePool } from "../src/pool/assemble.ts";
import { applyProfile, filterPool, followProfile, resolveProfile } from "../src/pool/profile.ts";
import { buildMcpTool, buildTool } from "../src/tool/build-tool.ts";
import { textResult } from "../src/tool/result.ts";
import { JsonSchemaCompiler } from "../src/validate/ajv.ts";
import { parseArgs } from "./lib/args.ts";
import { percentile, round } from "./lib/stats.ts";

const args = parseArgs(Bun.argv.slice(2), { samples: "value" });
const SAMPLES = Number(args.get("samples") ?? 200);
const compiler = new JsonSchemaCompiler();
const builtins = ["Bash", "Read", "Write", "Edit", "Glob", "Grep", "WebFetch", "NotebookEdit", "TodoWrite"].map((name) =>
  buildTool({ name, description: name, inputSchema: z.strictObject({}), call: async () => textResult(name) }),
);
const profile = resolveProfile("coding", {
  toolGroups: { "group:code": ["mcp__server7", "mcp__*__search_*"] },
  profiles: { coding: { include: ["group:fs", "Bash", "group:code", "mcp__server1__tool_1*"], exclude: ["Write", "mcp__*__delete_*"] } },
});

function pool(size: number) {
  const verbs = ["search", "create", "delete", "update", "list"];
  const mcpTools = Array.from({ length: size }, (_, index) => {
    const server = `server${index % 50}`;
    const tool = `${verbs[index % verbs.length]}_${index}`;
    return buildMcpTool({ name: `mcp__${server}__${tool}`, description: tool, inputJSONSchema: { type: "object" }, mcpInfo: { server, tool }, call: async () => textResult(tool) }, compiler);
  });
  return assemblePool({ builtins, mcpTools });
}

const results = [];
for (const size of [1_000, 10_000, 50_000]) {
  const base = pool(size);
  const arrayMs: number[] = [];
  let kept = 0;
  for (let sample = 0; sample < SAMPLES; sample++) {
    const started = performance.now();
    kept = applyProfile(base, profile).tools.length;
    arrayMs.push(performance.now() - started);
  }
  const baselineMs: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample++) {
    const started = performance.now();
    base.tools.filter((tool) => tool.name.length > 0);
    baselineMs.push(performance.now() - started);
  }
  const admits = followProfile(() => profile);
  const names = base.tools.map((tool) => tool.name);
  const lookupNs: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample++) {
    const started = performance.now();
    for (let index = 0; index < 1000; index++) filterPool(base, admits).get(names[(sample * 1000 + index) % names.length]!);
    lookupNs.push(((performance.now() - started) * 1e6) / 1000);
  }
  results.push({
    tools: base.tools.length,
    kept,
    arrayMs: { p50: round(percentile(arrayMs, 50), 3), p99: round(percentile(arrayMs, 99), 3) },
    baselineArrayMs: { p50: round(percentile(baselineMs, 50), 3) },
    ratioToBaseline: round(percentile(arrayMs, 50) / Math.max(percentile(baselineMs, 50), 1e-6), 2),
    lookupNs: { p50: round(percentile(lookupNs, 50), 0), p99: round(percentile(lookupNs, 99), 0) },
  });
}
const tenK = results.find((result) => result.tools > 10_000 - 1 && result.tools < 20_000)!;
console.log(
  JSON.stringify(
    {
      benchmark: "profile-filter",
      samples: SAMPLES,
      entries: profile.include.length + profile.exclude.length,
      results,
      targets: { ratioToBaseline: 4, lookupNsAt10k: 2000 },
      met: results.every((result) => result.ratioToBaseline <= 4) && tenK.lookupNs.p50 <= 2000,
    },
    null,
    2,
  ),
);
