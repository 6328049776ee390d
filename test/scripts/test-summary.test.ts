import { expect, test } from "bun:test";
import { closingLine, countSummary } from "../../scripts/test-summary.ts";

// What `bun test` prints at the end of a run with a skipped test.
const BUN_SUMMARY = "\n 2178 pass\n 2 skip\n 0 fail\n 5120 expect() calls\nRan 2180 tests across 212 files. [301.12s]\n";

test("skipped tests are counted and named in the closing line", () => {
  const totals = { passed: countSummary(BUN_SUMMARY, "pass"), failed: countSummary(BUN_SUMMARY, "fail"), skipped: countSummary(BUN_SUMMARY, "skip") };
  expect(totals).toEqual({ passed: 2178, failed: 0, skipped: 2 });
  expect(closingLine(totals)).toBe("tests: 2178 passed, 0 failed, 2 skipped");
});

test("the closing line still starts with the plain 'N passed, N failed' form scripts parse", () => {
  const line = closingLine({ passed: 7, failed: 1, skipped: 0 });
  const parsed = /^tests: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/.exec(line);
  expect(parsed?.slice(1)).toEqual(["7", "1", "0"]);
  expect(/(\d+) passed, (\d+) failed/.exec(line)?.slice(1)).toEqual(["7", "1"]);
});

test("a run without a skip line counts 0 skipped (not a number read from another line)", () => {
  expect(countSummary(" 12 pass\n 0 fail\n", "skip")).toBe(0);
});
