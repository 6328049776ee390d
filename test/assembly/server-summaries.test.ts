import { describe, expect, test } from "bun:test";
import { assembleRequest, type AssembleInput } from "../../src/assembly/assemble-request.ts";
import { renderServers, SERVERS_HEADER } from "../../src/assembly/announcements.ts";
import { firstSentence, MAX_SUMMARY_CHARS, summarizeServers } from "../../src/assembly/server-summaries.ts";
import { actionSummary } from "../../src/assembly/tool-actions.ts";
import { textResult } from "../../src/tool/result.ts";
import { indexOf, metaToolsOf, samplePool } from "./fixtures.ts";

const tools = [
  { server: "github", tool: "create_pull_request", description: "Create a new pull request in a GitHub repository." },
  { server: "github", tool: "merge_pull_request", description: "Merge a pull request." },
  { server: "github", tool: "create_issue", description: "Create a new issue in a GitHub repository." },
  { server: "gitlab", tool: "create_merge_request", description: "Create a new merge request in a GitLab project." },
  { server: "gitlab", tool: "create_issue", description: "Create a new issue in a GitLab project." },
];

describe("server summaries", () => {
  test("without instructions: the server's distinctive words, not the words every server shares", () => {
    const [github, gitlab] = summarizeServers(tools, new Map(), { actions: false });
    expect(github).toEqual({ name: "github", toolCount: 3, description: expect.any(String), source: "terms" });
    const githubWords = github!.description.split(", ");
    const gitlabWords = gitlab!.description.split(", ");
    expect(githubWords[0]).toBe("pull");
    expect(gitlabWords[0]).toBe("project");
    // "create" and "issue" are in both servers: they come after what sets each apart.
    expect(githubWords.indexOf("create")).toBeGreaterThan(githubWords.indexOf("repository"));
    // The server's own name is never a term, whole or in pieces.
    for (const word of ["github", "git", "hub", "gitlab", "lab"]) expect([...githubWords, ...gitlabWords]).not.toContain(word);
  });

  test("instructions win, cut to their first sentence and MAX_SUMMARY_CHARS", () => {
    const [github, gitlab] = summarizeServers(tools, new Map([["github", "Work with GitHub repositories.\nSecond line of the manual."], ["gitlab", "x ".repeat(400)]]));
    expect(github).toEqual({ name: "github", toolCount: 3, description: "Work with GitHub repositories.", source: "instructions" });
    expect(gitlab!.source).toBe("instructions");
    expect(gitlab!.description.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    expect(gitlab!.description.endsWith("…")).toBe(true);
    expect(firstSentence("  \n ")).toBe("");
    expect(firstSentence("# Everything Server\n\nExercises every MCP feature. More below.")).toBe("Exercises every MCP feature.");
    expect(firstSentence("# Only a heading")).toBe("# Only a heading");
  });

  test("hostile instructions: a cut never splits a character, and blank lines cost linear time", () => {
    // Before: the cut at 159 units kept the first half of an emoji (a lone surrogate in the announcement).
    const emoji = firstSentence("😀".repeat(400));
    expect({ half: /\p{Cs}/u.test(emoji), length: emoji.length <= MAX_SUMMARY_CHARS, cut: emoji.endsWith("😀…") }).toEqual({ half: false, length: true, cut: true });
    // Before: 4,096 characters of blank lines (as much as instructions keep) took ~27 ms a summary, 16K ~365 ms.
    const blank = `x${"\n".repeat(16_384)}# Heading\nWhat it is for.`;
    const started = performance.now();
    expect(firstSentence(blank)).toBe("x What it is for.");
    expect(performance.now() - started).toBeLessThan(20);
    // A heading still goes when its line opens with blanks, and only its own line goes.
    expect(firstSentence("  ## Manual\t\nDoes things.")).toBe("Does things.");
    expect(firstSentence("#\nNot a heading line. More.")).toBe("# Not a heading line.");
  });

  test("boilerplate most descriptions of a server repeat is not a term; its tools' names are", () => {
    const notion = ["create_page", "get_page", "append_block", "get_block_children", "query_database"].map((tool) => ({
      server: "notion",
      tool,
      description: "Notion API. Error responses: 400 Bad request, 401 unauthorized.",
    }));
    const other = [{ server: "maps", tool: "geocode", description: "Convert an address into coordinates." }];
    const terms = summarizeServers([...notion, ...other], new Map(), { actions: false })[1]!.description.split(", ");
    for (const boilerplate of ["bad", "error", "unauthorized", "request"]) expect(terms).not.toContain(boilerplate);
    expect(terms).toEqual(expect.arrayContaining(["page", "block"]));
  });

  test("inflections are one term, shown in the server's commonest spelling; at most four terms", () => {
    const trains = [
      { server: "rail", tool: "search_stations", description: "Search stations by city." },
      { server: "rail", tool: "get_station_code", description: "Get the code of a station." },
      { server: "rail", tool: "query_tickets", description: "Query tickets between stations." },
      { server: "maps", tool: "geocode", description: "Convert an address into coordinates." },
    ];
    const [, rail] = summarizeServers(trains, new Map(), { actions: false });
    const terms = rail!.description.split(", ");
    expect(terms.filter((term) => term.startsWith("station"))).toEqual(["stations"]);
    expect(terms.length).toBeLessThanOrEqual(4);
  });

  test("without instructions, verb-first tool names say what the server does: its commonest verbs and objects", () => {
    const gitlab = ["create_issue", "update_issue", "list_issues", "create_merge_request", "update_merge_request", "list_merge_requests", "get_pipeline", "list_branches", "fork_repository"].map((tool) => ({
      server: "gitlab",
      tool,
      description: "Invalid input is refused. Mutates the remote.",
    }));
    const [summary] = summarizeServers(gitlab);
    expect(summary).toEqual({ name: "gitlab", toolCount: 9, description: "create/fork/list/update: issue, merge request, branch, pipeline, repository", source: "actions" });
    // Instructions still win; names that are mostly not verbs fall back to the distinctive terms.
    expect(summarizeServers(gitlab, new Map([["gitlab", "GitLab projects."]]))[0]!.source).toBe("instructions");
    const maps = ["geocode", "directions", "elevation", "get_place"].map((tool) => ({ server: "maps", tool, description: "Maps." }));
    expect(summarizeServers(maps)[0]!.source).toBe("terms");
    expect(actionSummary(["getUser", "listUsers", "updateUserEmail"])).toBe("get/list/update: user, user email");
    expect(actionSummary(["create_issue"])).toBeUndefined();
    expect(actionSummary(["puppeteer_click", "puppeteer_hover", "puppeteer_navigate"], "puppeteer")).toBe("click, hover, navigate");
    // A shared namespace the server's name does not say is what the verbs act on.
    expect(actionSummary(["puppeteer_click", "puppeteer_hover", "puppeteer_navigate"], "browser")).toBe("puppeteer: click, hover, navigate");
    expect(actionSummary(["API-retrieve-a-page", "API-get-the-block", "wait_for"])).toBe("get/retrieve/wait: block, page");
    // A namespace most names share comes off first.
    expect(actionSummary(["browser_click", "browser_navigate", "browser_take_screenshot", "browser_close"])).toBe("click/close/navigate/take: screenshot");
    expect(actionSummary(["list_entries", "get_statuses", "search_branches", "get_addresses", "get_status"])).toBe("get/list/search: status, address, branch, entry");
  });

  test("names that put the verb after the object, carry the server's name, or scatter their objects still say what the server does", () => {
    // Object first (`stories-get-by-id`): the object is the words before the verb when none follow it.
    const shortcut = ["stories-get-by-id", "stories-search", "stories-create", "epics-get-by-id", "epics-create", "iterations-search", "users-list", "stories-update"];
    expect(actionSummary(shortcut, "shortcut")).toBe("create/get/list/search: story, epic, iteration, user");
    // The server's own name is no part of a name, unless it is the verb: brave-search still searches, exa's names are not "exa".
    expect(actionSummary(["brave_web_search", "brave_local_search"], "brave-search")).toBe("search: local, web");
    expect(actionSummary(["web_search_exa", "web_fetch_exa"], "exa")).toBe("web: fetch, search");
    // Quantifiers and ids are no objects (`delete-many`, `read_multiple_files`).
    expect(actionSummary(["delete-many", "insert-many", "read_multiple_files", "get_file_by_id"], "db")).toBe("delete/get/insert/read: file");
    // Many actions on a shared prefix, each object named once: the verbs say more than five of those objects.
    const browser = ["close", "resize", "handle_dialog", "evaluate", "file_upload", "press_key", "type", "navigate", "navigate_back", "take_screenshot", "click", "drag", "hover"].map((name) => `browser_${name}`);
    expect(actionSummary(browser, "playwright")).toBe("browser: click, close, drag, evaluate, handle, hover, navigate, press, resize");
  });

  test("a server with one tool is what that tool says it does; instructions about themselves give way to the tools' names", () => {
    const [postgres] = summarizeServers([{ server: "postgres", tool: "query", description: "Run a read-only SQL query. Returns rows." }]);
    expect(postgres).toEqual({ name: "postgres", toolCount: 1, description: "Run a read-only SQL query.", source: "tool" });
    const tools = ["create_issue", "list_issues", "get_issue"].map((tool) => ({ server: "tracker", tool, description: "Issues." }));
    const manual = "# Tracker – Server Instructions\n\nAudience: These instructions are written for an LLM integrating with the server.\nFollow them.";
    expect(summarizeServers(tools, new Map([["tracker", manual]]))[0]).toEqual({ name: "tracker", toolCount: 3, description: "create/get/list: issue", source: "actions" });
    expect(summarizeServers(tools, new Map([["tracker", "Read these instructions before calling anything."]]))[0]!.source).toBe("actions");
    expect(summarizeServers(tools, new Map([["tracker", "Tracks issues for the team."]]))[0]!.description).toBe("Tracks issues for the team.");
    // Bounded: a one-tool server's endless description is one line of at most MAX_SUMMARY_CHARS.
    const [long] = summarizeServers([{ server: "x", tool: "do", description: `${"word ".repeat(500)}\n${"more ".repeat(500)}` }]);
    expect(long!.description.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    expect(long!.description).not.toContain("\n");
  });

  test("the same tools give the same lines, whatever their order", () => {
    expect(summarizeServers([...tools].reverse())).toEqual(summarizeServers(tools));
  });

  test("renderServers: header, a line per server, built-ins by name, connecting servers; nothing → null", () => {
    const announcement = renderServers({ servers: summarizeServers(tools.slice(3)), builtins: ["WebFetch", "CronCreate"], pending: ["slack"] });
    expect(announcement?.text.split("\n")).toEqual([
      "<available-deferred-servers>",
      SERVERS_HEADER,
      `gitlab (2 tools): ${summarizeServers(tools.slice(3))[0]!.description}`,
      "Deferred built-in tools: CronCreate, WebFetch",
      "Still connecting (search again shortly): slack",
      "</available-deferred-servers>",
    ]);
    expect(announcement).toMatchObject({ style: "servers", persist: false, added: ["gitlab", "CronCreate", "WebFetch"] });
    expect(renderServers({ servers: [], builtins: [] })).toBeNull();
  });
});

describe("assembleRequest with announcements: servers", () => {
  const pool = samplePool();
  const engine = indexOf(pool);
  const input = (announcements: "list" | "servers"): AssembleInput => ({
    settings: { model: "claude-sonnet-4-5", provider: "anthropic", format: "anthropic", delivery: "native", announcements },
    tools: pool.tools,
    messages: [],
    metaTools: metaToolsOf(pool, engine),
    serverInstructions: new Map([["jira", "Jira tickets and boards."]]),
  });

  test("server lines instead of tool names, built-ins by name, the same tools array as list", () => {
    const servers = assembleRequest(input("servers"));
    const list = assembleRequest(input("list"));
    expect(servers.tools).toEqual(list.tools);
    const lines = servers.announcement!.text.split("\n");
    expect(lines).toContain("jira (1 tool): Jira tickets and boards.");
    expect(lines.some((line) => line.startsWith("github (2 tools): "))).toBe(true);
    // slack's list_channels is alwaysLoad (core): only its deferred tool counts.
    expect(lines.some((line) => line.startsWith("slack (1 tool): "))).toBe(true);
    expect(lines).toContain("Deferred built-in tools: NotebookEdit, WebFetch");
    expect(servers.announcement!.text).not.toContain("mcp__github__create_issue");
    expect(servers.announcement!.text.length).toBeLessThan(list.announcement!.text.length + 400);
  });
});
