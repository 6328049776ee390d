/**
 * RankingOptions.nameTieBreak: among the results a caller is shown (at most the first five), the
 * name's share said by the request breaks near-ties, and nothing else changes.
 */
import { describe, expect, test } from "bun:test";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

// send_message says the request in its name only; notify_team in its description and hint, a little more strongly.
const NAMED: SearchDocument = { name: "send_message", description: "Post to a channel of the team." };
const DESCRIBED = (name: string): SearchDocument => ({ name, description: "Send a message.", searchHint: "message" });

function build(tools: SearchDocument[], nameTieBreak?: number): ToolSearchIndex {
  const index = new ToolSearchIndex(nameTieBreak === undefined ? {} : { ranking: { nameTieBreak } });
  for (const tool of tools) index.add(tool);
  return index;
}

const names = (index: ToolSearchIndex, query: string, maxResults: number) => index.query(query, { maxResults }).matches.map((match) => match.name);

describe("the name breaks near-ties among what is shown", () => {
  test("a tool whose name the request says goes first when the scores are close", () => {
    const tools = [NAMED, DESCRIBED("notify_team")];
    expect(names(build(tools, 0), "send message", 5)).toEqual(["notify_team", "send_message"]);
    expect(names(build(tools), "send message", 5)).toEqual(["send_message", "notify_team"]);
    // Scores stay in order: the one moved up carries its multiplied score.
    const scores = build(tools).query("send message").matches.map((match) => match.score);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });

  test("it never brings a tool into the answer: with one result asked for, nothing is reordered", () => {
    const tools = [NAMED, DESCRIBED("notify_team")];
    expect(names(build(tools), "send message", 1)).toEqual(["notify_team"]);
  });

  test("past the first five nothing moves, whatever the caller asks for", () => {
    const named: SearchDocument = { name: "send_message", description: "Post a message to a channel of the team." };
    const decoys = ["notify_a", "notify_b", "notify_c", "notify_d", "notify_e"].map((name) => ({
      name,
      description: "Send a message to a channel of people.",
      searchHint: "message",
    }));
    const on = build([named, ...decoys]);
    const off = build([named, ...decoys], 0);
    const offMatches = off.query("send message", { maxResults: 10 }).matches;
    expect(offMatches[5]!.name).toBe("send_message");
    // Within the tie-break's reach if it looked past the fifth: its name is all said (× 1.1).
    expect(offMatches[5]!.score * 1.1).toBeGreaterThan(offMatches[4]!.score);
    expect(names(on, "send message", 10)).toEqual(names(off, "send message", 10));
    // One decoy fewer and the named tool is among the five: then it goes first.
    expect(names(build([named, ...decoys.slice(1)]), "send message", 10)[0]).toBe("send_message");
  });

  test("a number the request passes is not the name said ('2024' in report_2024)", () => {
    const tools: SearchDocument[] = [
      { name: "report_2024", description: "A report of the year." },
      { name: "report_summary", description: "A summary report of 2024." },
    ];
    const scores = (nameTieBreak: number) =>
      new Map(build(tools, nameTieBreak).query("report 2024", { maxResults: 5 }).matches.map((match) => [match.name, match.score]));
    const [on, off] = [scores(0.1), scores(0)];
    // Each has one of its two own name terms said ("report"): × 1.05, the number counting for neither.
    for (const name of ["report_2024", "report_summary"]) expect(on.get(name)! / off.get(name)!).toBeCloseTo(1.05, 6);
  });
});
