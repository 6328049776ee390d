import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testPlan } from "../../scripts/test-plan.ts";

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "plan-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("which test files run once per tier", () => {
  test("a file reaching feature() or the tier under test through any import runs per tier; the rest once", () => {
    const root = tree({
      "src/gated.ts": 'import { feature } from "bun:bundle";\nexport const on = feature("PREFETCH") ? 1 : 0;',
      "src/middle.ts": 'export { on } from "./gated.ts";',
      "src/pure.ts": "export const x = 1;",
      "test/helpers/binary.ts": "export const tier = process.env.TOOLPOOL_TEST_TIER;",
      "test/a.test.ts": 'import { on } from "../src/middle.ts";',
      "test/b.test.ts": 'import { x } from "../src/pure.ts";',
      "test/c.test.ts": 'import { tier } from "./helpers/binary.ts";',
      "test/d.test.ts": '// test-plan: one tier — the socket, the same in every tier.\nimport { tier } from "./helpers/binary.ts";',
      // The marker must open a line and give a reason: a mention in passing, or a bare marker, is not one.
      "test/e.test.ts": 'import { tier } from "./helpers/binary.ts";\nconst note = "// test-plan: one tier — x";',
      "test/f.test.ts": '// test-plan: one tier —\nimport { tier } from "./helpers/binary.ts";',
      // On a file no tier changes anyway, the marker changes nothing.
      "test/g.test.ts": '// test-plan: one tier — pure.\nimport { x } from "../src/pure.ts";',
    });
    expect(testPlan(root)).toEqual({
      perTier: ["./test/a.test.ts", "./test/c.test.ts", "./test/e.test.ts", "./test/f.test.ts"],
      once: ["./test/b.test.ts", "./test/g.test.ts"],
      oneTier: ["./test/d.test.ts"],
    });
  });

  test("on this repository: the daemon's and the binary's tests are per tier, the pure rooms' once", () => {
    const plan = testPlan(join(import.meta.dir, "..", ".."));
    expect(plan.perTier).toEqual(expect.arrayContaining(["./test/daemon/protocol.test.ts", "./test/e2e/tier-contents.test.ts", "./test/e2e/binary-tiers.test.ts", "./test/e2e/honest-hints.test.ts"]));
    // Scenarios that drive the binary but no tier's feature run in one tier.
    expect(plan.oneTier).toEqual(expect.arrayContaining(["./test/e2e/lifecycle.test.ts", "./test/e2e/socket-ownership.test.ts"]));
    expect(plan.once).toEqual(expect.arrayContaining(["./test/search/tokenizer.test.ts", "./test/architecture.test.ts"]));
  });
});
