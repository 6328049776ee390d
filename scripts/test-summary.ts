/**
 * Reading `bun test`'s summary ("  12 pass", "  1 skip", "  0 fail") and the one closing line of
 * `npm test`. The line starts "tests: N passed, N failed" (scripts parse that part) and goes on
 * ", N skipped", so a skipped test is never hidden behind "0 failed".
 */
export type SummaryWord = "pass" | "fail" | "skip";

export function countSummary(output: string, word: SummaryWord): number {
  const match = new RegExp(`^\\s*(\\d+) ${word}$`, "m").exec(output);
  return match ? Number(match[1]) : 0;
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

export function closingLine(totals: Totals): string {
  return `tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
}
