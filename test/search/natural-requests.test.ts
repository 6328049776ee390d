/**
 * The failure classes of natural requests on a real pool (issue 17): the catalogs of 31 npm MCP
 * servers as captured in bench/data. Each case failed on the ranking before the fix.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { searchDocumentFromTool } from "../../src/search/tool-document.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";

interface Catalog {
  server: string;
  instructions?: string;
  tools: { name: string; description?: string; inputSchema?: unknown }[];
}

const catalogs = (JSON.parse(readFileSync(join(import.meta.dir, "../../bench/data/real-servers.json"), "utf8")) as { servers: Catalog[] }).servers;

function realPool(ranking = {}): ToolSearchIndex {
  const index = new ToolSearchIndex({ ranking });
  for (const catalog of catalogs) {
    for (const tool of catalog.tools) {
      index.add(
        searchDocumentFromTool({
          name: `mcp__${catalog.server}__${tool.name}`,
          server: catalog.server,
          rawToolName: tool.name,
          description: tool.description ?? "",
          inputSchema: tool.inputSchema,
        }),
      );
    }
  }
  return index;
}

const index = realPool();
const first = (query: string) => index.query(query, { maxResults: 5 }).matches[0]?.name;

describe("natural requests on a real pool", () => {
  test("the pool is the captured one", () => {
    expect(catalogs.length).toBeGreaterThanOrEqual(20);
    expect(index.size).toBeGreaterThan(400);
  });

  test("a server word is membership: the named server's tool wins, not the tool whose text repeats a word", () => {
    expect(first("create a feature flag in LaunchDarkly for the new checkout")).toBe("mcp__launchdarkly__create-feature-flag");
    // firecrawl_monitor_create says "monitor" in its name too; the query named Datadog.
    expect(first("which Datadog monitors are alerting")).toBe("mcp__datadog__get_monitors");
  });

  test("any spelling of the server name counts: GitHub, github, Google Calendar, google-calendar", () => {
    for (const query of ["fork the repository on GitHub", "fork the repository on github"]) {
      expect(first(query)).toBe("mcp__github__fork_repository");
    }
    for (const query of ["free busy slots in Google Calendar", "free busy slots in google-calendar"]) {
      expect(first(query)).toBe("mcp__google-calendar__get-freebusy");
    }
  });

  test("a common word that happens to be a server name is not a mention", () => {
    // "memory" names a server, but it is not the server's own word: no boost for memory's tools.
    const ranked = index.query("take a heap snapshot to find the memory leak", { maxResults: 3 }).matches.map((match) => match.name);
    expect(ranked[0]).toBe("mcp__chrome-devtools__take_heapsnapshot");
  });

  test("an enum value does not answer the query's verb: 'open' a pull request is not list(state: open)", () => {
    expect(first("open a pull request on github")).toBe("mcp__github__create_pull_request");
    expect(first("open pull request")).toBe("mcp__github__create_pull_request");
    // The same value still counts when the tool sets it rather than filters by it.
    expect(first("close issue 42")).toBe("mcp__github__update_issue");
  });

  test("a tool named for the reverse direction needs the query to ask for it", () => {
    expect(first("what are the coordinates of 1600 Amphitheatre Parkway")).toBe("mcp__google-maps__maps_geocode");
    expect(first("reverse geocode these coordinates")).toBe("mcp__google-maps__maps_reverse_geocode");
  });

  test("coordinates in the request lift the tools that take a latitude (a value is an argument)", () => {
    const rank = (pool: ToolSearchIndex) =>
      pool.query("what address is at 40.7128, -74.0060", { maxResults: 10 }).matches.findIndex((match) => match.name === "mcp__google-maps__maps_reverse_geocode") + 1;
    expect(rank(index)).toBeLessThanOrEqual(3);
    expect(rank(realPool({ valueParameter: 0 }))).toBeGreaterThan(3);
  });

  test("each fix is a knob: turned off, today's failures come back", () => {
    const off = realPool({ serverMembership: 0, filterValue: 1, unaskedReverse: 1 });
    const top = (query: string) => off.query(query, { maxResults: 5 }).matches[0]?.name;
    expect(top("open a pull request on github")).toBe("mcp__github__list_pull_requests");
    expect(top("what are the coordinates of 1600 Amphitheatre Parkway")).toBe("mcp__google-maps__maps_reverse_geocode");
  });

  test("a named server's tools are told apart by how much of their own name the request says", () => {
    // Every member gets the name's credit alike; firecrawl_interact_stop's text says "scraped page"
    // and takes a scrapeId, sentry's get_issue_tag_values says "issue" more often than search_issues.
    expect(first("scrape this page with Firecrawl")).toBe("mcp__firecrawl__firecrawl_scrape");
    expect(first("show the Sentry issues for the checkout project")).toBe("mcp__sentry__search_issues");
    const off = realPool({ memberName: 0, nameTieBreak: 0 });
    const top = (query: string) => off.query(query, { maxResults: 5 }).matches[0]?.name;
    expect(top("scrape this page with Firecrawl")).toBe("mcp__firecrawl__firecrawl_interact_stop");
    expect(top("show the Sentry issues for the checkout project")).toBe("mcp__sentry__get_issue_tag_values");
  });

  test("GitHub names the server though git and hub are words gitlab's and hubspot's tools use too", () => {
    // The rarest of git and hub is mostly other servers' (gitlab's git); github, the name as one word, is github's.
    expect(first("show me the recent commits on GitHub for the main branch")).toBe("mcp__github__list_commits");
    expect(first("what files changed in this GitHub pull request")).toBe("mcp__github__get_pull_request_files");
  });

  test("how often a description repeats the server's name does not count (the issue's GitLab case)", () => {
    const build = (ranking = {}) => {
      const small = new ToolSearchIndex({ ranking });
      const add = (server: string, tool: string, description: string) =>
        small.add({ name: `mcp__${server}__${tool}`, server, rawToolName: tool, description });
      add("gitlab", "list_merge_requests", "List merge requests of a GitLab project (GitLab.com or a self-hosted GitLab instance; needs a GitLab token).");
      add("gitlab", "create_merge_request", "Create a new merge request in a project.");
      add("gitlab", "get_project", "Get a GitLab project by id (GitLab.com or self-hosted GitLab).");
      add("github", "create_pull_request", "Create a new pull request in a GitHub repository.");
      return small;
    };
    const top = (small: ToolSearchIndex, query: string) => small.query(query).matches[0]?.name;
    const withServer = "open a merge request in GitLab from feature-x into main";
    expect(top(build(), "open a merge request from feature-x into main")).toBe("mcp__gitlab__create_merge_request");
    expect(top(build(), withServer)).toBe("mcp__gitlab__create_merge_request");
    expect(top(build(), withServer.replace("GitLab", "gitlab"))).toBe("mcp__gitlab__create_merge_request");
    // Without membership, the name's repetitions win.
    expect(top(build({ serverMembership: 0 }), withServer)).toBe("mcp__gitlab__list_merge_requests");
  });
});
