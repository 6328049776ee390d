import { describe, expect, test } from "bun:test";
import { indexOf, names, POOL } from "./fixtures.ts";

describe("ToolSearchIndex: contents", () => {
  test("add, has, names and size", () => {
    const index = indexOf();
    expect(index.size).toBe(POOL.length);
    expect(index.has("Read")).toBe(true);
    expect(index.has("Nope")).toBe(false);
    expect(index.query("select:Shell").found).toEqual(["Bash"]);
    expect([...index.names()]).toEqual(POOL.map((doc) => doc.name));
  });

  test("adding a name again replaces the tool", () => {
    const index = indexOf();
    index.add({ name: "Read", description: "Opens spreadsheets." });
    expect(index.size).toBe(POOL.length);
    expect(names(index, "spreadsheets")).toEqual(["Read"]);
    expect(names(index, "filesystem")).toEqual([]);
  });

  test("replace swaps the indexed text", () => {
    const index = indexOf();
    index.replace({ name: "CronCreate", description: "Plants trees in the garden." });
    expect(names(index, "garden trees")).toEqual(["CronCreate"]);
    expect(names(index, "recurring timer")).toEqual([]);
  });

  test("remove forgets the tool everywhere", () => {
    const index = indexOf();
    expect(index.remove("Bash")).toBe(true);
    expect(index.remove("Bash")).toBe(false);
    expect(index.has("Bash")).toBe(false);
    expect(names(index, "shell command")).toEqual([]);
    expect(index.query("select:Shell").missing).toEqual(["Shell"]);
    expect(index.query("Bash").exactName).toBeUndefined();
  });

  test("removeServer drops every tool of that server and nothing else", () => {
    const index = indexOf();
    expect(index.removeServer("github")).toBe(3);
    expect(index.removeServer("github")).toBe(0);
    expect(index.size).toBe(POOL.length - 3);
    expect(names(index, "issue repository", 10)).toEqual([]);
    expect(names(index, "slack message")).toContain("mcp__slack__send_message");
  });

  test("replaceServer swaps a server's tool list", () => {
    const index = indexOf();
    index.replaceServer("slack", [
      { name: "mcp__slack__add_reaction", server: "slack", rawToolName: "add_reaction", description: "React with an emoji." },
    ]);
    expect(names(index, "mcp__slack", 10)).toEqual(["mcp__slack__add_reaction"]);
    expect(index.has("mcp__slack__send_message")).toBe(false);
  });
});

describe("ToolSearchIndex: select:", () => {
  test("resolves pool names, aliases and raw MCP names, in request order, without duplicates", () => {
    const result = indexOf().query("select:Shell,Read,create_issue,Bash");
    expect(result).toEqual({
      kind: "select",
      matches: [
        { name: "Bash", score: 1 },
        { name: "Read", score: 1 },
        { name: "mcp__github__create_issue", score: 1 },
      ],
      found: ["Bash", "Read", "mcp__github__create_issue"],
      missing: [],
    });
  });

  test("tolerates missing names and suggests near misses", () => {
    const result = indexOf().query("select: Read , CronCreat, zzzzzz");
    expect(result.found).toEqual(["Read"]);
    expect(result.missing).toEqual(["CronCreat", "zzzzzz"]);
    expect(result.didYouMean).toEqual(["CronCreate"]);
  });

  test("is case-insensitive when no exact case matches, and ignores the filter", () => {
    const result = indexOf().query("SELECT:read", { filter: () => false });
    expect(result.found).toEqual(["Read"]);
  });

  test("a server selected as a unit expands to what the filter admits (the session's pool): others are neither named nor counted", () => {
    const everything = indexOf().query("select:mcp__github");
    const github = everything.found ?? [];
    expect(github.length).toBeGreaterThan(1);
    const [hidden, ...rest] = github;
    const result = indexOf().query("select:mcp__github", { filter: (name) => name !== hidden });
    expect(result.found).toEqual(rest);
    expect(result.missing).toEqual([]);
    expect(result.servers).toEqual([{ server: "github", total: rest.length, selected: rest.length }]);
    expect(JSON.stringify(result)).not.toContain(hidden!);
  });

  test("an empty selection selects nothing", () => {
    expect(indexOf().query("select:")).toEqual({ kind: "select", matches: [], found: [], missing: [] });
  });
});

describe("ToolSearchIndex: keywords", () => {
  test("ranks the tools that match best first", () => {
    const index = indexOf();
    expect(names(index, "create github issue")[0]).toBe("mcp__github__create_issue");
    expect(names(index, "run a shell command")[0]).toBe("Bash");
    expect(names(index, "schedule recurring job")[0]).toBe("CronCreate");
    expect(names(index, "jupyter")[0]).toBe("NotebookEdit");
    expect(names(index, "enhancement label")[0]).toBe("mcp__github__create_issue");
  });

  test("returns max_results matches, default 5, clamped to 1..100", () => {
    const index = indexOf();
    const broad = "github slack issue channel message code repository file shell command weather scheduled cells";
    expect(index.query(broad).matches.length).toBe(5);
    expect(index.query(broad, { maxResults: 2 }).matches.length).toBe(2);
    expect(index.query(broad, { maxResults: 0 }).matches.length).toBe(1);
    expect(index.query(broad, { maxResults: Number.NaN }).matches.length).toBe(5);
    expect(index.query(broad, { maxResults: 10_000 }).matches.length).toBe(POOL.length);
  });

  test("the filter restricts what keyword search returns", () => {
    const index = indexOf();
    const result = index.query("github issue", { filter: (name) => name !== "mcp__github__create_issue" });
    expect(result.matches.map((match) => match.name)).toEqual(["mcp__github__list_issues", "mcp__github__search_code"]);
  });

  test("scores are positive and descending", () => {
    const { matches } = indexOf().query("list issues channels", { maxResults: 10 });
    expect(matches.length).toBeGreaterThan(1);
    for (let i = 1; i < matches.length; i++) expect(matches[i]!.score).toBeLessThanOrEqual(matches[i - 1]!.score);
    expect(matches.every((match) => match.score > 0)).toBe(true);
  });

  test("discover: ranks like keywords and says so", () => {
    const index = indexOf();
    const result = index.query("discover: slack message");
    expect(result.kind).toBe("discover");
    expect(result.matches.map((match) => match.name)).toEqual(names(index, "slack message"));
  });

  test("+required terms must match", () => {
    const index = indexOf();
    expect(names(index, "list +slack", 10)).toEqual(["mcp__slack__list_channels", "mcp__slack__send_message"]);
    expect(names(index, "+issues +create")).toEqual(["mcp__github__create_issue"]);
    expect(names(index, "list +unheardofword")).toEqual([]);
    expect(names(index, "phone +4915123577723 list")).toContain("mcp__slack__list_channels");
  });

  test("a tool named outright in the query ranks first", () => {
    expect(names(indexOf(), "post it with send_message to the github channel")[0]).toBe("mcp__slack__send_message");
  });
});
