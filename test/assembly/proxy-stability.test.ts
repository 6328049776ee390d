/**
 * Proxy delivery's promise: the tools array is the same bytes on every request of a session, through
 * searches, executions, prefetch attachments, delta announcements, servers joining and deferred
 * tools changing. 50 simulated turns, each format.
 */
import { describe, expect, test } from "bun:test";
import { assembleRequest, type AssembleInput } from "../../src/assembly/assemble-request.ts";
import { renderToolDiscovery } from "../../src/assembly/tool-discovery-attachment.ts";
import { createExecuteExtraTool } from "../../src/builtin/execute-extra-tool.ts";
import { isDeferredTool } from "../../src/deferral/is-deferred.ts";
import { createToolSearchTool } from "../../src/builtin/tool-search.ts";
import { DEFAULT_PERMISSIONS } from "../../src/permissions/rules.ts";
import { assemblePool, type Pool } from "../../src/pool/assemble.ts";
import { executeTool } from "../../src/pipeline/execute.ts";
import { resultText, type ToolResult } from "../../src/tool/result.ts";
import type { Tool, ToolContext } from "../../src/tool/tool.ts";
import type { WireFormat } from "../../src/deferral/delivery.ts";
import { indexOf, mcp, metaToolsOf, samplePool } from "./fixtures.ts";

const TURNS = 50;
const context: ToolContext = { signal: new AbortController().signal, sessionId: "s", workspaceRoots: ["/tmp"], cwd: "/tmp", sessionState: new Map() };
const QUERIES = ["github issue", "select:mcp__slack__post_message", "discover:jira", "select:Read", "slack", "select:mcp__linear__create_issue", "notebook cells", "web page"];
const TARGETS = ["mcp__github__create_issue", "mcp__slack__post_message", "mcp__jira__create-ticket", "WebFetch", "mcp__linear__create_issue", "Read"];

class Session {
  readonly messages: Record<string, unknown>[] = [];
  readonly cache = new Map<string, string>();
  discovered: ReadonlySet<string> = new Set();
  private calls = 0;

  constructor(readonly format: WireFormat) {}

  record(name: string, input: Record<string, unknown>, result: ToolResult): void {
    const id = `call_${++this.calls}`;
    if (this.format === "openai") {
      this.messages.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(input) } }] });
      this.messages.push({ role: "tool", tool_call_id: id, content: resultText(result) });
      return;
    }
    this.messages.push({ role: "assistant", content: [{ type: "tool_use", id, name, input }] });
    this.messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: result.content, ...(result.isError && { is_error: true }) }] });
  }

  note(text: string): void {
    this.messages.push({ role: "user", content: this.format === "openai" ? text : [{ type: "text", text }] });
  }
}

function poolAt(turn: number): Pool {
  const base = samplePool();
  const mcpTools = base.tools.filter((tool) => tool.isMcp);
  const builtins = base.tools.filter((tool) => !tool.isMcp);
  // Turn 20: a server connects. Turn 30: a deferred tool's description changes.
  if (turn >= 20) mcpTools.push(mcp("linear", "create_issue", { description: "Create a Linear issue." }));
  const changed = mcpTools.map((tool) =>
    turn >= 30 && tool.name === "mcp__github__create_issue" ? mcp("github", "create_issue", { description: "Create an issue (v2)." }) : tool,
  );
  return assemblePool({ builtins, mcpTools: changed });
}

async function simulate(format: WireFormat) {
  const session = new Session(format);
  const arrays: string[] = [];
  const outcomes = { executed: 0, refused: 0, searches: 0 };
  for (let turn = 0; turn < TURNS; turn++) {
    const pool = poolAt(turn);
    const engine = indexOf(pool);
    const toolSearch = createToolSearchTool({ engine, lookup: pool.get, delivery: "proxy", pendingServers: () => (turn < 20 ? ["linear"] : []) });
    const executeExtraTool = createExecuteExtraTool({ lookup: pool.get });
    const input: AssembleInput = {
      settings: { model: "gpt-4o", provider: "openai", delivery: "auto", format, announcements: "delta" },
      tools: pool.tools,
      messages: session.messages,
      metaTools: () => ({ toolSearch, executeExtraTool }),
      pendingServers: turn < 20 ? ["linear"] : [],
      schemaCache: session.cache,
    };
    const assembled = assembleRequest(input);
    expect(assembled.delivery.delivery).toBe("proxy");
    arrays.push(JSON.stringify(assembled.tools));
    session.discovered = new Set(assembled.discovered);
    if (assembled.announcement) session.note(assembled.announcement.text);

    const lookup = (name: string): Tool | undefined => (name === toolSearch.name ? toolSearch : name === executeExtraTool.name ? executeExtraTool : pool.get(name));
    const run = (name: string, toolInput: Record<string, unknown>) => executeTool(name, toolInput, context, {
        lookup,
        permissions: DEFAULT_PERMISSIONS,
        isDeferred: isDeferredTool,
        discovery: { has: (tool) => session.discovered.has(tool), add: () => {} },
      });
    if (turn % 3 === 0) {
      const query = QUERIES[(turn / 3) % QUERIES.length]!;
      session.record("ToolSearch", { query }, await run("ToolSearch", { query }));
      outcomes.searches += 1;
    } else if (turn % 3 === 1) {
      const target = TARGETS[turn % TARGETS.length]!;
      const params = target.startsWith("mcp__") ? { title: `turn ${turn}` } : { target: `turn ${turn}` };
      const result = await run("ExecuteExtraTool", { tool_name: target, params });
      outcomes[result.isError ? "refused" : "executed"] += 1;
      session.record("ExecuteExtraTool", { tool_name: target, params }, result);
    } else if (turn % 6 === 2) {
      session.note(renderToolDiscovery([pool.get("NotebookEdit")!], "proxy")!);
    } else {
      session.record("Read", { target: "a" }, await run("Read", { target: "a" }));
    }
  }
  return { arrays, outcomes, session };
}

describe("proxy: one tools array for the whole session", () => {
  test.each(["anthropic", "openai"] as const)("%s: byte-identical over 50 turns of searches and executions", async (format) => {
    const { arrays, outcomes, session } = await simulate(format);
    expect(arrays).toHaveLength(TURNS);
    expect(new Set(arrays).size).toBe(1);
    // The simulation did what it claims: searches, runs that went through, and refusals.
    expect(outcomes.searches).toBe(17);
    expect(outcomes.executed).toBeGreaterThan(3);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect([...session.discovered].sort()).toEqual([
      "NotebookEdit",
      "WebFetch",
      "mcp__github__create_issue",
      "mcp__github__get_issue",
      "mcp__linear__create_issue",
      "mcp__slack__post_message",
    ]);
  });

  test("a restarted daemon (no cache, no state) rebuilds the same array and discovered set from the transcript", async () => {
    const { arrays, session } = await simulate("anthropic");
    const pool = poolAt(TURNS);
    const engine = indexOf(pool);
    const fresh = assembleRequest({
      settings: { model: "gpt-4o", provider: "openai", delivery: "auto", format: "anthropic", announcements: "delta" },
      tools: pool.tools,
      messages: session.messages,
      metaTools: metaToolsOf(pool, engine),
    });
    expect(JSON.stringify(fresh.tools)).toBe(arrays[0]!);
    expect(new Set(fresh.discovered)).toEqual(new Set(session.discovered));
    expect(fresh.announcement?.added ?? []).toEqual([]);
  });
});
