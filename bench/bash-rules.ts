#!/usr/bin/env bun
/**
 * What Bash rules over a parse cost: loading the grammar (once, on the first Bash permission check),
 * then reading and judging one command, for typical commands and for the largest one read (64 KiB).
 * Prints JSON. Usage: bun bench/bash-rules.ts [--runs 2000]
 */
import { parseArgs } from "node:util";
import { createBashTool } from "../src/builtin/bash.ts";
import { MAX_SHELL_COMMAND_CHARS } from "../src/builtin/shell-parser.ts";
import { evaluateRules, type PermissionSettings } from "../src/permissions/rules.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "2000" } }, strict: true });
const runs = Number(values.runs);
const settings: PermissionSettings = { mode: "default", allow: ["Bash(git *)", "Bash(npm test)", "Bash(grep *)"], deny: ["Bash(rm *)", "Read(**/.env)", "Edit(**/.env)"] };
const bash = createBashTool();

async function check(command: string): Promise<number> {
  const started = performance.now();
  const input = { command };
  evaluateRules(settings, bash, input, "/w", await bash.access(input, "/w"));
  return performance.now() - started;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 1000) / 1000;
  return { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1), runs: sorted.length };
}

const firstCheckMs = Math.round((await check("git status")) * 10) / 10;
const typical = ["git status && npm test", 'git commit -m "$(date)" | grep -v x', "for f in *.ts; do grep -n TODO \"$f\"; done", "cat <<EOF > out\n$(git log)\nEOF"];
const typicalSamples: number[] = [];
for (let index = 0; index < runs; index++) typicalSamples.push(await check(typical[index % typical.length] ?? ""));
const large = `echo ${"word ".repeat(Math.floor((MAX_SHELL_COMMAND_CHARS - 10) / 5))}`;
const largeSamples: number[] = [];
for (let index = 0; index < 20; index++) largeSamples.push(await check(large));
const rssMb = Math.round(process.memoryUsage().rss / 1024 / 1024);

console.log(JSON.stringify({ benchmark: "bash-rules", firstCheckMs, typical: summary(typicalSamples), largest: { chars: large.length, ...summary(largeSamples) }, rssMb }, null, 2));
