import { describe, expect, test } from "bun:test";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import { withUsagePrior } from "../../src/usage/prior-engine.ts";
import { usageTerms } from "../../src/usage/usage-terms.ts";
import { WorkspacePrior } from "../../src/usage/workspace-prior.ts";

function index() {
  const subject = new ToolSearchIndex();
  subject.add({ name: "SendMail", description: "Send a message by email to a person." });
  subject.add({ name: "SendChat", description: "Send a message to a person in the team chat." });
  subject.add({ name: "TranslateText", description: "Translate text into another language." });
  subject.add({ name: "ReadFile", description: "Read a file from disk." });
  return subject;
}

/** A workspace that searched `query` and then called `tool`, `times` times. */
function learned(query: string, tool: string, times: number): WorkspacePrior {
  const prior = new WorkspacePrior();
  for (let i = 0; i < times; i++) {
    prior.used(tool, null);
    prior.searched(usageTerms(query), tool);
  }
  return prior;
}

const names = (result: { matches: { name: string }[] }) => result.matches.map((match) => match.name);

describe("withUsagePrior", () => {
  test("lifts a tool the workspace's searches with these words led to, among the query's matches", () => {
    const engine = index();
    expect(names(engine.query("send a message to a person"))).toEqual(["SendChat", "SendMail"]);
    const prior = learned("send a message to bob", "SendMail", 2);
    expect(names(withUsagePrior(engine, () => prior).query("send a message to a person"))).toEqual(["SendMail", "SendChat"]);
  });

  test("one call is an anecdote: a tool used once here does not move, however close its past search", () => {
    const once = learned("send a message to a person", "SendMail", 1);
    expect(names(withUsagePrior(index(), () => once).query("send a message to a person"))).toEqual(["SendChat", "SendMail"]);
    const twice = learned("send a message to a person", "SendMail", 2);
    expect(names(withUsagePrior(index(), () => twice).query("send a message to a person"))).toEqual(["SendMail", "SendChat"]);
  });

  test("never brings in a tool the query did not match, however much it is used", () => {
    const prior = learned("read the config file", "ReadFile", 50);
    expect(names(withUsagePrior(index(), () => prior).query("translate into french", { maxResults: 5 }))).toEqual(["TranslateText"]);
  });

  test("select: keeps the order asked for; maxResults is still honoured", () => {
    const prior = learned("send chat", "SendChat", 5);
    const engine = withUsagePrior(index(), () => prior);
    expect(names(engine.query("select:SendMail,SendChat"))).toEqual(["SendMail", "SendChat"]);
    expect(names(engine.query("send a message to a person", { maxResults: 1 }))).toEqual(["SendChat"]);
  });

  test("a weak association (a common word shared with past searches) does not reorder", () => {
    // "person" led to SendMail once among many searches that led elsewhere.
    const prior = new WorkspacePrior();
    prior.searched(["person"], "SendMail");
    for (let i = 0; i < 9; i++) prior.searched(["person"], `Other${i}`);
    expect(names(withUsagePrior(index(), () => prior).query("send a message to a person"))).toEqual(["SendChat", "SendMail"]);
  });
});

describe("WorkspacePrior", () => {
  test("followers need repetition and a share of what followed; promotion needs three calls", () => {
    const prior = new WorkspacePrior();
    prior.used("A", null);
    prior.used("B", "A");
    prior.used("C", "A");
    expect(prior.followers("A", 3)).toEqual([]);
    prior.used("B", "A");
    expect(prior.followers("A", 3)).toEqual(["B"]);
    expect(prior.mostUsed(3, () => true)).toEqual([]);
    prior.used("B", null);
    expect(prior.mostUsed(3, () => true)).toEqual(["B"]);
    expect(prior.mostUsed(3, (tool) => tool !== "B")).toEqual([]);
    expect(prior.mostUsed(0, () => true)).toEqual([]);
  });
});
