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
    });
    expect(testPlan(root)).toEqual({ perTier: ["./test/a.test.ts", "./test/c.test.ts"], once: ["./test/b.test.ts"] });
  });

  test("on this repository: the daemon's and the binary's tests are per tier, the pure rooms' once", () => {
    const plan = testPlan(join(import.meta.dir, "..", ".."));
    expect(plan.perTier).toEqual(expect.arrayContaining(["./test/daemon/protocol.test.ts", "./test/e2e/tier-contents.test.ts"]));
    expect(plan.once).toEqual(expect.arrayContaining(["./test/search/tokenizer.test.ts", "./test/architecture.test.ts"]));
  });
});
