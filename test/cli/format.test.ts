import { describe, expect, test } from "bun:test";
import { formatServers, formatStatus, formatTools, plural } from "../../src/cli/format.ts";
import { formatAuthStatus } from "../../src/cli/auth-command.ts";
import type { ServerSummary } from "../../src/protocol/methods.ts";

const server = (overrides: Partial<ServerSummary>): ServerSummary => ({
  name: "memory",
  state: "connected",
  transport: "stdio",
  startup: "eager",
  toolCount: 9,
  stale: false,
  changedTools: [],
  restarts: 0,
  inFlight: 0,
  ...overrides,
});

describe("CLI formatting", () => {
  test("counts read as English: one tool, two tools", () => {
    expect([plural(0, "tool"), plural(1, "tool"), plural(2, "tool")]).toEqual(["0 tools", "1 tool", "2 tools"]);
  });

  test("`toolpool servers` says 1 tool, 1 restart and 1 call in the singular", () => {
    const text = formatServers([server({ name: "sequential-thinking", toolCount: 1, pid: 42, restarts: 1, inFlight: 1 }), server({ pid: 43 })]);
    expect(text.split("\n").map((line) => line.replace(/\s+/g, " ").trim())).toEqual([
      "sequential-thinking connected 1 tool, stdio, pid 42, 1 restart, 1 call running",
      "memory connected 9 tools, stdio, pid 43",
    ]);
  });

  test("a tool whose server needs a login says the command; auth status never shows more than it is given", () => {
    const text = formatTools({
      tools: [{ name: "mcp__linear__x", description: "Does x.", source: "mcp", server: "linear", deferred: true, enabled: true, readOnly: false, concurrencySafe: false, destructive: false, openWorld: false, alwaysLoad: false, stale: true, needsAuth: true }],
      collisions: [],
    });
    expect(text).toContain("[deferred, mcp:linear, cached, needs login: toolpool auth login linear] Does x.");
    expect(formatAuthStatus([{ name: "linear", url: "https://mcp.linear.app/mcp", loggedIn: false, refreshable: false, client: "none", loginInProgress: false, staticAuthorization: false, tokenFile: "/s/oauth/linear.ab.json" }])).toBe(
      "linear  https://mcp.linear.app/mcp\n  not logged in — run toolpool auth login linear\n  client: none; token file: /s/oauth/linear.ab.json",
    );
    expect(formatAuthStatus([{ name: "linear", url: "https://mcp.linear.app/mcp", loggedIn: true, refreshable: true, client: "metadata-document", issuer: "https://mcp.linear.app/", loginInProgress: false, staticAuthorization: false, tokenFile: "/s/oauth/tokens.cd.json" }])).toBe(
      "linear  https://mcp.linear.app/mcp\n  logged in, refreshable\n  client: metadata-document; issuer: https://mcp.linear.app/; token file: /s/oauth/tokens.cd.json",
    );
  });

  test("`toolpool status` says what waiting servers wait for", () => {
    const text = formatStatus({
      version: "1", tier: "pro", features: [], compiled: true, pid: 1, socket: "/s", uptimeMs: 0,
      sessions: { active: 0, detached: 0 }, connections: 0, tools: { total: 0, builtin: 0, mcp: 0 },
      calls: { total: 0, inFlight: 0 }, memory: { rssBytes: 0, heapUsedBytes: 0 },
      mcpServers: { total: 3, connected: 1, "needs-auth": 1, untrusted: 1 },
    });
    expect(text.split("\n").slice(-1)[0]).toBe(
      "  waiting: 1 need an OAuth login (toolpool auth login NAME); 1 wait for their project file to be trusted (toolpool trust PATH) — toolpool servers says which",
    );
  });
});

describe("`toolpool status` and the tool-count guard", () => {
  test("tools the guard deferred are counted, the first five named, and explain pointed to", () => {
    const deferred = Array.from({ length: 7 }, (_, index) => `mcp__big__t${index}`);
    const text = formatStatus({
      version: "1", tier: "pro", features: [], compiled: true, pid: 1, socket: "/s", uptimeMs: 0,
      sessions: { active: 0, detached: 0 }, connections: 0, tools: { total: 200, builtin: 0, mcp: 200 },
      guard: { maxToolsInArray: 128, deferred },
      calls: { total: 0, inFlight: 0 }, memory: { rssBytes: 0, heapUsedBytes: 0 },
      mcpServers: { total: 0 },
    });
    expect(text.split("\n").slice(-1)[0]).toBe(
      "  warning: 7 tools deferred by the tool-count guard (maxToolsInArray 128): mcp__big__t0, mcp__big__t1, mcp__big__t2, mcp__big__t3, mcp__big__t4, … — toolpool explain NAME",
    );
  });
});

describe("`toolpool status` and the tools array limit", () => {
  test("requests the limit changed are counted with the last warning", () => {
    const text = formatStatus({
      version: "1", tier: "pro", features: [], compiled: true, pid: 1, socket: "/s", uptimeMs: 0,
      sessions: { active: 1, detached: 0 }, connections: 0, tools: { total: 200, builtin: 0, mcp: 200 },
      arrayLimit: { maxToolsInArray: 128, requests: 3, last: "tools array limit (maxToolsInArray 128): 200 tools would be sent in full, so this request defers with proxy delivery" },
      calls: { total: 0, inFlight: 0 }, memory: { rssBytes: 0, heapUsedBytes: 0 },
      mcpServers: { total: 0 },
    });
    expect(text.split("\n").slice(-1)[0]).toBe(
      "  warning: the tools array limit (maxToolsInArray 128) changed 3 requests; last: tools array limit (maxToolsInArray 128): 200 tools would be sent in full, so this request defers with proxy delivery",
    );
  });
});

describe("`toolpool tools` columns", () => {
  const tool = (name: string, description: string) => ({ name, description, deferred: true, readOnly: false, source: "mcp", server: "s" }) as unknown as import("../../src/protocol/methods.ts").ToolSummary;

  test("a description that opens with a newline shows its first line with words", async () => {
    const { formatTools } = await import("../../src/cli/format.ts");
    const text = formatTools({ tools: [tool("run_pipeline", "\n\n   Triggers a pipeline.  Then waits.\nMore.")], collisions: [] });
    expect(text.split("\n")[0]).toBe("run_pipeline  [deferred, mcp:s] Triggers a pipeline.");
  });

  test("a long name gets its own line; the other rows keep their columns", async () => {
    const { formatTools } = await import("../../src/cli/format.ts");
    const long = `hubspot-${"x".repeat(50)}`;
    const text = formatTools({ tools: [tool("Read", "Reads a file."), tool(long, "Long one."), tool("Grep", "Searches.")], collisions: [] });
    const pad = " ".repeat(40);
    expect(text.split("\n")).toEqual([
      `${"Read".padEnd(40)}  [deferred, mcp:s] Reads a file.`,
      long,
      `${pad}  [deferred, mcp:s] Long one.`,
      `${"Grep".padEnd(40)}  [deferred, mcp:s] Searches.`,
      "3 tools",
    ]);
  });
});
