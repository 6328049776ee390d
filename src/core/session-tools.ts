/**
 * The tools a session has beyond the pool: its ToolSearch and ExecuteExtraTool, built for the
 * session's delivery (fixed for the session's life, so their bytes never change mid-conversation),
 * and StructuredOutput when its settings give an output schema. The session holds them.
 * `sessionLookup` is what the session's calls resolve names with: its own tools first, then the pool.
 */
import { createExecuteExtraTool } from "../builtin/execute-extra-tool.ts";
import { createToolSearchTool, type ToolSearchEngine } from "../builtin/tool-search.ts";
import { deliveryOf } from "./session-delivery.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Session, SessionOwnTools } from "../session/session.ts";
import type { Tool } from "../tool/tool.ts";
import { createStructuredOutputTool } from "../builtin/structured-output.ts";
import type { JsonSchemaCompiler } from "../validate/ajv.ts";
import type { Metrics } from "../telemetry/metrics.ts";

export interface SessionToolDeps {
  pool: () => Pool;
  engine: ToolSearchEngine;
  pendingServers: () => readonly string[];
  /** Connecting servers whose cached tools are searchable (marked stale); MCP servers' instructions. */
  cachedServers?: () => readonly string[];
  serverInstructions?: () => ReadonlyMap<string, string>;
  /** Counters for OpenTelemetry (a no-op unless telemetry is on). */
  metrics?: Metrics;
  /** Starts a lazily started MCP server in the background (a `select:` of one of its tools). */
  warmServer?: (server: string) => void;
  /** Shared by every session's StructuredOutput: one compilation per distinct schema. */
  compiler: JsonSchemaCompiler;
}

export function sessionTools(session: Session, deps: SessionToolDeps): SessionOwnTools {
  const own = session.ownTools;
  if (own) {
    if (own.outputSchema !== session.settings.outputSchema) withStructuredOutput(own, session.settings.outputSchema, deps);
    return own;
  }
  const decided = deliveryOf(session);
  const delivery = decided === "native" ? "native" : "proxy";
  const lookup = (name: string) => deps.pool().get(name);
  const engine: ToolSearchEngine = {
    query(text, options) {
      const result = deps.engine.query(text, options);
      deps.metrics?.search({ kind: result.kind, results: result.matches.length, source: "tool_search", delivery: decided });
      // A bridge or harness that sends no transcript still gets what its own searches found.
      // discover: shows schemas without discovering (SPEC §7), so it marks nothing found.
      if (result.kind !== "discover") {
        for (const match of result.matches) {
          session.searched.add(match.name);
          session.found.set(match.name, { via: "search", query: text.slice(0, 200) });
        }
      }
      // Selecting a tool means a call is coming: start its server now if it starts lazily.
      if (result.kind === "select") {
        for (const name of result.found ?? []) {
          const server = deps.pool().get(name)?.mcpInfo?.server;
          if (server) deps.warmServer?.(server);
        }
      }
      return result;
    },
  };
  const tools: SessionOwnTools = {
    outputSchema: null,
    toolSearch: createToolSearchTool({
      engine,
      lookup,
      delivery,
      pendingServers: deps.pendingServers,
      ...(deps.cachedServers && { cachedServers: deps.cachedServers }),
      announcements: session.settings.announcements,
      defaultMaxResults: session.settings.runtime.searchMaxResults,
    }),
    executeExtraTool: createExecuteExtraTool({ lookup }),
  };
  withStructuredOutput(tools, session.settings.outputSchema, deps);
  session.ownTools = tools;
  return tools;
}

/** Throws OutputSchemaError for a schema that does not compile (the session handler reports it). */
function withStructuredOutput(tools: SessionOwnTools, schema: Record<string, unknown> | null, deps: SessionToolDeps): void {
  if (schema) tools.structuredOutput = createStructuredOutputTool(schema, deps.compiler);
  else delete tools.structuredOutput;
  tools.outputSchema = schema;
}

export function sessionLookup(session: Session, deps: SessionToolDeps): (name: string) => Tool | undefined {
  const own = sessionTools(session, deps);
  return (name) => {
    if (name === own.toolSearch.name) return own.toolSearch;
    if (name === own.executeExtraTool.name) return own.executeExtraTool;
    if (own.structuredOutput && name === own.structuredOutput.name) return own.structuredOutput;
    return deps.pool().get(name);
  };
}
