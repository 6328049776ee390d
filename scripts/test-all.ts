#!/usr/bin/env bun
/**
 * `npm test`: type-check, build every tier, run the test files that differ by tier once per tier
 * with that tier's compile-time features (`bun test --feature=A --feature=B`, one flag per
 * `--feature`: a comma list would silently turn them all off) and its binary as the end-to-end
 * target, the files marked tier-independent in the last tier's run only, and every other file once
 * (scripts/test-plan.ts decides which is which).
 * Prints one closing line, "tests: N passed, N failed, N skipped", summed over the runs.
 */
import { join } from "node:path";
import { TIERS, type TierName } from "../features/tiers.ts";
import { testPlan } from "./test-plan.ts";
import { closingLine, countSummary } from "./test-summary.ts";

const bun = process.execPath;
const extraArgs = process.argv.slice(2);

async function run(command: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const child = Bun.spawn(command, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true });
      output += text;
      sink.write(text);
    }
  };
  await Promise.all([pump(child.stdout, process.stdout), pump(child.stderr, process.stderr)]);
  return { code: await child.exited, output };
}


const started = performance.now();
const typecheck = await run([bun, "x", "tsc", "--noEmit", "-p", "."]);
if (typecheck.code !== 0) {
  console.error("type-check failed");
  process.exit(1);
}
const build = await run([bun, "run", "build.ts"]);
if (build.code !== 0) {
  console.error("build failed");
  process.exit(1);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedRuns = 0;
const record = (result: { code: number; output: string }) => {
  totals.passed += countSummary(result.output, "pass");
  totals.failed += countSummary(result.output, "fail");
  totals.skipped += countSummary(result.output, "skip");
  if (result.code !== 0) failedRuns++;
};
// Extra arguments (a filter, a path) narrow the run: then everything they select runs per tier.
const plan = extraArgs.length > 0 ? undefined : testPlan(join(import.meta.dir, ".."));
if (plan) {
  console.error(`\n=== bun test, once: ${plan.once.length} files that no tier changes ===`);
  record(await run([bun, "test", ...plan.once]));
}
const tiers = Object.keys(TIERS) as TierName[];
for (const tier of tiers) {
  const features = TIERS[tier].map((flag) => `--feature=${flag}`);
  // The last tier has every feature: the tier-independent scenarios run there, once.
  const files = plan ? (tier === tiers.at(-1) ? [...plan.perTier, ...plan.oneTier] : plan.perTier) : extraArgs;
  console.error(`\n=== bun test for tier ${tier} (${TIERS[tier].join(", ") || "no features"})${plan ? `: ${files.length} files` : ""} ===`);
  record(await run([bun, "test", ...features, ...files], { TOOLPOOL_TEST_TIER: tier }));
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`\ntiers: ${Object.keys(TIERS).length}, suite time ${seconds} s`);
console.log(closingLine(totals));
process.exit(failedRuns > 0 || totals.failed > 0 ? 1 : 0);
