import { describe, expect, test } from "bun:test";
import { parseQuery } from "../../src/search/query-parser.ts";
import { indexOf, names } from "./fixtures.ts";
import { MAX_SUGGESTED_MISSES } from "../../src/search/name-selection.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";

describe("exact-name fast path", () => {
  test("a pool name, alias or raw MCP name returns just that tool", () => {
    const index = indexOf();
    expect(index.query("mcp__github__create_issue")).toEqual({
      kind: "keyword",
      matches: [{ name: "mcp__github__create_issue", score: 1 }],
      exactName: "mcp__github__create_issue",
    });
    expect(index.query("  Shell ").exactName).toBe("Bash");
    expect(index.query("list_channels").exactName).toBe("mcp__slack__list_channels");
    expect(index.query("notebookedit").exactName).toBe("NotebookEdit");
  });

  test("names the tool even when the filter excludes it, but does not return it", () => {
    const result = indexOf().query("Read", { filter: (name) => name !== "Read" });
    expect(result.exactName).toBe("Read");
    expect(result.matches).toEqual([]);
  });
});

describe("server narrowing", () => {
  test("mcp__server alone lists that server's tools", () => {
    const result = indexOf().query("mcp__slack", { maxResults: 10 });
    expect(result.server).toBe("slack");
    expect(result.matches.map((match) => match.name).sort()).toEqual([
      "mcp__slack__list_channels",
      "mcp__slack__send_message",
    ]);
  });

  test("mcp__server with words ranks within the server", () => {
    const index = indexOf();
    expect(names(index, "mcp__github list", 10)).toEqual(["mcp__github__list_issues"]);
    expect(names(index, "mcp__github__ issues", 10).sort()).toEqual(["mcp__github__create_issue", "mcp__github__list_issues"]);
    expect(names(index, "mcp__slack__send", 10)).toEqual(["mcp__slack__send_message"]);
  });

  test("a query that is just a server name narrows to it", () => {
    const result = indexOf().query("GitHub", { maxResults: 10 });
    expect(result.server).toBe("github");
    expect(result.matches.length).toBe(3);
  });

  test("an unknown server matches nothing and echoes pending servers", () => {
    const result = indexOf().query("mcp__jira create ticket", { pendingServers: ["jira"] });
    expect(result).toEqual({ kind: "keyword", matches: [], server: "jira", pendingServers: ["jira"] });
  });

  test("server words inside a longer query only weigh in, they do not narrow", () => {
    const found = names(indexOf(), "send the weather forecast to slack", 10);
    expect(found).toContain("mcp__weather__get_forecast");
    expect(found).toContain("mcp__slack__send_message");
  });
});

describe("CJK", () => {
  test("two matching bigrams are enough", () => {
    expect(names(indexOf(), "天气预报")).toEqual(["mcp__weather__get_forecast"]);
  });

  test("a single matching bigram among several is not, unless an ASCII term also matches", () => {
    const index = indexOf();
    expect(names(index, "天气很好看")).toEqual([]);
    expect(names(index, "天气很好看 forecast")).toEqual(["mcp__weather__get_forecast"]);
  });

  test("a query of one bigram needs only that one", () => {
    expect(names(indexOf(), "天气")).toEqual(["mcp__weather__get_forecast"]);
  });
});

describe("did you mean", () => {
  test("a near miss on a name suggests the name", () => {
    const index = indexOf();
    expect(index.query("CronCreat").didYouMean).toEqual(["CronCreate"]);
    expect(index.query("mcp__github__create_isue").didYouMean).toContain("mcp__github__create_issue");
    expect(index.query("create-issue").didYouMean).toContain("mcp__github__create_issue");
  });

  test("a select: of many missing names suggests for the first few only (each suggestion is a scan)", () => {
    // Attack: 100 missing names in one select: each ran an edit-distance scan; at 5,000 tools one
    // query held the daemon's thread 0.5-1.5 s and stalled another client's ping 2.7 s.
    const index = indexOf();
    const typos = ["CronCreat", "mcp__github__create_isue", "mcp__slack__list_chanels", "NotebookEdt", "WebFetc"];
    const result = index.query(`select:${[...typos, ...Array.from({ length: 95 }, (_, i) => `CronCreat${i}`)].join(",")}`);
    expect(result.missing).toHaveLength(100);
    expect(result.didYouMean).toEqual(["CronCreate", "mcp__github__create_issue", "mcp__slack__list_channels"]);
    expect(MAX_SUGGESTED_MISSES).toBe(3);
  });

  test("plain keyword queries that match get no suggestion", () => {
    expect(indexOf().query("github issue").didYouMean).toBeUndefined();
  });
});

describe("bad and odd input", () => {
  test("empty, blank, punctuation-only and stop-word-only queries match nothing", () => {
    const index = indexOf();
    for (const query of ["", "   ", "!!! ??? ...", "the of and a", "+", "discover:", "mcp__"]) {
      expect(index.query(query).matches).toEqual([]);
    }
  });

  test("pending servers are echoed only when nothing matched", () => {
    const index = indexOf();
    expect(index.query("zzqqxx", { pendingServers: ["jira"] }).pendingServers).toEqual(["jira"]);
    expect(index.query("github issue", { pendingServers: ["jira"] }).pendingServers).toBeUndefined();
  });

  test("a 10,000-character query is answered within max_results", () => {
    const index = indexOf();
    const words = ["github", "issue", "slack", "weather", "x".repeat(300), "天气预报", "🚀"];
    const long = Array.from({ length: 2_000 }, (_, i) => words[i % words.length]).join(" ").slice(0, 10_000);
    expect(long.length).toBe(10_000);
    const result = index.query(long, { maxResults: 3 });
    expect(result.matches.length).toBe(3);
    expect(index.query("a".repeat(10_000)).matches).toEqual([]);
    expect(index.query(`select:${"b,".repeat(5_000)}`).found).toEqual([]);
  });

  test("unicode of every kind is handled", () => {
    const index = indexOf();
    for (const query of ["🚀🔥", "مرحبا بالعالم", "ÀÉÎÕÜ", "\u0000\u0001", "\ud800", "𠀀𠀁𠀂", "Ｓｌａｃｋ"]) {
      expect(() => index.query(query)).not.toThrow();
    }
  });
});

describe("parseQuery", () => {
  test("splits the query forms", () => {
    expect(parseQuery("select: a, b ,a")).toEqual({ kind: "select", names: ["a", "b"] });
    expect(parseQuery("discover: +slack send mcp__github__create")).toEqual({
      kind: "discover",
      whole: "+slack send mcp__github__create",
      text: "send create",
      required: ["slack"],
      servers: ["github"],
    });
    // The prefixes are told by character codes: any case of the ASCII letters, nothing that only
    // looks like them (the long s, the Kelvin sign, fullwidth letters), as /^select:/i tells them.
    const forms = ["SELECT:a", "Select:a", "sElEcT:a", "ſelect:a", "select :a", "selec:a", "select", "Discover:x", "DISCOVER:x", "diſcover:x", "discover", "\u212Aey", "ｓｅｌｅｃｔ:a", " select:a"];
    expect(forms.map((query) => parseQuery(query).kind)).toEqual(
      forms.map((query) => (/^select:/i.test(query.trim()) ? "select" : /^discover:/i.test(query.trim()) ? "discover" : "keyword")),
    );
    expect(forms.map((query) => parseQuery(query).kind).filter((kind) => kind === "select").length).toBe(4);
    expect(parseQuery("call +1 555 0100")).toEqual({
      kind: "keyword",
      whole: "call +1 555 0100",
      text: "call +1 555 0100",
      required: [],
      servers: [],
    });
  });
});

describe("fuzz", () => {
  test("random text never throws, as a query or as a tool", () => {
    let state = 99;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const alphabet = ["a", "Z", "_", "-", ".", " ", "+", ":", ",", "天", "气", "é", "\u0301", "🚀", "\ud800", "0", "9", "mcp__", "select:", "\n"];
    const text = (length: number) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
    const index = indexOf();
    for (let round = 0; round < 300; round++) {
      const name = text(1 + Math.floor(next() * 20));
      index.add({ name, description: text(Math.floor(next() * 80)), server: next() < 0.5 ? text(5) : undefined });
      const result = index.query(text(Math.floor(next() * 60)), { maxResults: 1 + Math.floor(next() * 10) });
      expect(result.matches.length).toBeLessThanOrEqual(Math.max(10, result.found?.length ?? 0));
      if (next() < 0.3) index.remove(name);
    }
  });
});

describe("page:N (server listings)", () => {
  test("is taken out of the words, any case, 1 to 9999; other spellings stay words", () => {
    expect(parseQuery("mcp__gitlab page:2")).toEqual({ kind: "keyword", whole: "mcp__gitlab page:2", text: "", required: [], servers: ["gitlab"], page: 2 });
    expect(parseQuery("mcp__gitlab PAGE:9999")).toMatchObject({ page: 9999, text: "" });
    for (const word of ["page:0", "page:10000", "page:-1", "page:2x", "pages:2"]) {
      const parsed = parseQuery(`mcp__gitlab ${word}`);
      expect(parsed).toMatchObject({ text: word });
      expect(parsed).not.toHaveProperty("page");
    }
  });

  test("a keyword search ignores the page: it ranks as without it", () => {
    const index = new ToolSearchIndex();
    index.add({ name: "mcp__gitlab__create_issue", server: "gitlab", description: "Create an issue" });
    index.add({ name: "mcp__gitlab__list_issues", server: "gitlab", description: "List issues" });
    expect(index.query("mcp__gitlab create issue page:2").matches.map((match) => match.name)).toEqual(
      index.query("mcp__gitlab create issue").matches.map((match) => match.name),
    );
    expect(index.query("mcp__gitlab page:1", { maxResults: 1 })).toMatchObject({ listed: true, listedTotal: 2, page: 1, matches: [{ name: "mcp__gitlab__create_issue" }] });
    expect(index.query("mcp__gitlab page:2", { maxResults: 1 })).toMatchObject({ listed: true, listedTotal: 2, page: 2, matches: [{ name: "mcp__gitlab__list_issues" }] });
  });
});
