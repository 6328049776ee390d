/**
 * RankingOptions.oppositeAction: a tool whose own name says one side of a pair of opposite actions
 * (mute / unmute, create / delete) is lowered when the request says only the other side.
 */
import { describe, expect, test } from "bun:test";
import { contradictedActions, actionCode, oppositeCode } from "../../src/search/opposite-actions.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

function build(tools: SearchDocument[], oppositeAction?: number): ToolSearchIndex {
  const index = new ToolSearchIndex(oppositeAction === undefined ? {} : { ranking: { oppositeAction } });
  for (const tool of tools) index.add(tool);
  return index;
}

const names = (index: ToolSearchIndex, query: string) => index.query(query, { maxResults: 5 }).matches.map((match) => match.name);

// unmute_host's hint and text say the request's words more often than mute_host's: without the rule it wins.
const MUTE: SearchDocument = { name: "mute_host", description: "Silence the alerts of a machine for a while." };
const UNMUTE: SearchDocument = { name: "unmute_host", description: "End the mute of a host, so the host alerts again.", searchHint: "mute host" };

describe("opposite actions", () => {
  test("the side the request says goes before the side it contradicts", () => {
    expect(names(build([MUTE, UNMUTE], 1), "mute the host")).toEqual(["unmute_host", "mute_host"]);
    expect(names(build([MUTE, UNMUTE]), "mute the host")).toEqual(["mute_host", "unmute_host"]);
    // The other way round the rule lowers mute_host instead.
    expect(names(build([MUTE, UNMUTE]), "unmute the host")[0]).toBe("unmute_host");
  });

  test("a request that says both sides lowers neither", () => {
    const query = "mute or unmute the host";
    expect(names(build([MUTE, UNMUTE]), query)).toEqual(names(build([MUTE, UNMUTE], 1), query));
  });

  test("a server's words in the name are not the tool's action", () => {
    // A pool name that repeats its server ("Reading Home"): the raw name's words join the name field,
    // but the server reads nothing, and a request to write is not contradicted by its tools.
    const tool: SearchDocument = {
      name: "mcp__reading_home__posts_by_author",
      server: "Reading Home",
      rawToolName: "Reading_Home__posts_by_author",
      description: "Posts of an author to write about.",
    };
    const score = (oppositeAction: number) => build([tool], oppositeAction).query("write a post about an author").matches[0]?.score;
    expect(score(1)).toBeGreaterThan(0);
    expect(score(0.5)).toBe(score(1));
  });

  test("the table: sides, their opposites, and what a request contradicts", () => {
    expect(actionCode("creat")).not.toBe(0);
    expect(oppositeCode(actionCode("creat"))).toBe(actionCode("delet"));
    expect(oppositeCode(actionCode("delet"))).toBe(actionCode("creat"));
    expect(actionCode("add")).toBe(actionCode("creat"));
    expect(contradictedActions(["creat", "todo"])).toEqual([actionCode("delet")]);
    expect(contradictedActions(["add", "remov"])).toEqual([]);
    expect(contradictedActions(["list", "host"])).toEqual([]);
    // The table's last side still fits the six bits of the name byte a slot keeps it in.
    expect(actionCode("unfreez")).toBeGreaterThan(0);
    expect(actionCode("unfreez")).toBeLessThanOrEqual(63);
    // "terminal" stems to termin: a word for a place, not the action of stopping; it is not in the table.
    expect(actionCode("termin")).toBe(0);
  });
});
