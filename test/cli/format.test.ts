import { describe, expect, test } from "bun:test";
import { formatServers, plural } from "../../src/cli/format.ts";
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
