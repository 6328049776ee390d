/**
 * Which test files differ by tier. A file does when anything it imports, transitively within the
 * repository, reads a compile-time flag (`feature()` from "bun:bundle") or the tier under test
 * (`TOOLPOOL_TEST_TIER`, the binary it drives). Those run once per tier; every other file gives the
 * same result in every tier, so it runs once.
 *
 * A file that reaches the tier only to pick the binary it drives, and whose scenario no tier's
 * features change (the socket, the lifecycle, Bash, the wire), says so with a line
 * `// test-plan: one tier — <why>`: it runs in one tier's run (the last, the tier with every
 * feature), not in each. A file that checks what a tier contains must not carry the marker.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const TIER_SENSITIVE = /from\s+["']bun:bundle["']|TOOLPOOL_TEST_TIER/;
/** The marker of a tier-sensitive file whose behaviour is the same in every tier. */
const ONE_TIER = /^\/\/ test-plan: one tier — \S/m;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function localImports(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:import|export)[^"';]*?from\s+["']([^"']+)["']|require\(["']([^"']+)["']\)|import\(["']([^"']+)["']\)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? "",
  );
  return specifiers.filter((specifier) => specifier.startsWith(".")).map((specifier) => resolve(dirname(file), specifier)).filter((path) => existsSync(path) && statSync(path).isFile());
}

export interface TestPlan {
  /** Run once per tier, with that tier's features and binary. */
  perTier: string[];
  /** Run once, without features (no tier reaches them). */
  once: string[];
  /** Reach the tier (a binary, a feature()) but behave alike in every tier: run in one tier's run. */
  oneTier: string[];
}

export function testPlan(root: string): TestPlan {
  const sensitive = new Map<string, boolean>();
  const visiting = new Set<string>();
  const isSensitive = (file: string): boolean => {
    const known = sensitive.get(file);
    if (known !== undefined) return known;
    if (visiting.has(file)) return false;
    visiting.add(file);
    const text = readFileSync(file, "utf8");
    const result = TIER_SENSITIVE.test(text) || localImports(file, text).some(isSensitive);
    visiting.delete(file);
    sensitive.set(file, result);
    return result;
  };
  const tests = walk(join(root, "test")).filter((file) => /\.test\.ts$/.test(file)).sort();
  const plan: TestPlan = { perTier: [], once: [], oneTier: [] };
  for (const file of tests) {
    const group = !isSensitive(file) ? "once" : ONE_TIER.test(readFileSync(file, "utf8")) ? "oneTier" : "perTier";
    plan[group].push(`./${relative(root, file)}`);
  }
  return plan;
}

if (import.meta.main) {
  const plan = testPlan(join(import.meta.dir, ".."));
  console.log(JSON.stringify({ perTier: plan.perTier.length, once: plan.once.length, oneTier: plan.oneTier.length, files: plan }, null, 2));
}
