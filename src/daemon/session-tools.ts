/**
 * The tools a session has beyond the pool: its ToolSearch and ExecuteExtraTool, built for the
 * session's delivery (fixed for the session's life, so their bytes never change mid-conversation).
 * `lookup` is what the session's calls resolve names with: its own tools first, then the pool.
 */
import { createExecuteExtraTool, pipelineExecutor } from "../builtin/execute-extra-tool.ts";
import { createToolSearchTool, type ToolSearchEngine } from "../builtin/tool-search.ts";
import { deliveryOf } from "./assemble-tools.ts";
import type { PermissionSettings } from "../permissions/rules.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Session } from "../session/session.ts";
import type { Tool } from "../tool/tool.ts";
import { createStructuredOutputTool } from "../builtin/structured-output.ts";
import type { JsonSchemaCompiler } from "../validate/ajv.ts";
import type { CallRefusal } from "../tool/execute.ts";
import { noopMetrics, type Metrics } from "../telemetry/metrics.ts";
import { meteredCall } from "../telemetry/metered-call.ts";
import { EXECUTE_EXTRA_TOOL_NAME } from "../deferral/meta-tools.ts";
import type { Discovery } from "../protocol/explain.ts";

export interface SessionToolDeps {
  pool: () => Pool;
  engine: ToolSearchEngine;
  pendingServers: () => readonly string[];
  killSwitch?: (tool: Tool, session: Session) => string | undefined;
  /** Starts a lazily started MCP server in the background (a `select:` of one of its tools). */
  warmServer?: (server: string) => void;
  /** Shared by every session's StructuredOutput: one compilation per distinct schema. */
  compiler: JsonSchemaCompiler;
  metrics?: Metrics;
  /** Told of a call the pipeline refused (through ExecuteExtraTool), for the log. */
  onRefused?: (session: Session, refusal: CallRefusal) => void;
}

export interface SessionTools {
  toolSearch: Tool;
  executeExtraTool: Tool;
  /** Names found by this session's own ToolSearch calls: counted as discovered for ExecuteExtraTool. */
  searched: Set<string>;
  /** How each name in `searched` was found (for `toolpool explain`); keys are pool names, so bounded by the pool. */
  found: Map<string, Discovery>;
  /** The session's StructuredOutput, when its settings give an output schema. */
  structuredOutput?: Tool;
  /** The schema `structuredOutput` was built from (a re-opened session may change it). */
  outputSchema: Record<string, unknown> | null;
}

const built = new WeakMap<Session, SessionTools>();

export function sessionTools(session: Session, deps: SessionToolDeps): SessionTools {
  const cached = built.get(session);
  if (cached) {
    if (cached.outputSchema !== session.settings.outputSchema) withStructuredOutput(cached, session.settings.outputSchema, deps);
    return cached;
  }
  const decided = deliveryOf(session);
  const delivery = decided === "native" ? "native" : "proxy";
  const searched = new Set<string>();
  const found = new Map<string, Discovery>();
  const lookup = (name: string) => deps.pool().get(name);
  const permissions = (): PermissionSettings => session.settings.permissions;
  const engine: ToolSearchEngine = {
    query(text, options) {
      const result = deps.engine.query(text, options);
      deps.metrics?.search({ kind: result.kind, results: result.matches.length, source: "tool_search", delivery: decided });
      // A bridge or harness that sends no transcript still gets what its own searches found.
      // discover: shows schemas without discovering (SPEC §7), so it marks nothing found.
      if (result.kind !== "discover") {
        for (const match of result.matches) {
          searched.add(match.name);
          found.set(match.name, { via: "search", query: text.slice(0, 200) });
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
  const tools: SessionTools = {
    searched,
    found,
    outputSchema: null,
    toolSearch: createToolSearchTool({
      engine,
      lookup,
      delivery,
      pendingServers: deps.pendingServers,
      defaultMaxResults: session.settings.runtime.searchMaxResults,
    }),
    executeExtraTool: createExecuteExtraTool({
      lookup,
      discovered: () => new Set([...session.discovered, ...searched]),
      // Counted as the tool it runs (via ExecuteExtraTool): in proxy delivery that is every deferred call.
      execute: (name, input, context) =>
        meteredCall(deps.metrics ?? noopMetrics, { tool: lookup(name), delivery: () => decided, via: EXECUTE_EXTRA_TOOL_NAME }, (refused) =>
          pipelineExecutor({
            lookup,
            permissions: permissions(),
            ...(deps.killSwitch && { killSwitch: (tool: Tool) => deps.killSwitch?.(tool, session) }),
            onRefused: (refusal: CallRefusal) => {
              refused();
              deps.onRefused?.(session, refusal);
            },
          })(name, input, context),
        ),
    }),
  };
  withStructuredOutput(tools, session.settings.outputSchema, deps);
  built.set(session, tools);
  return tools;
}

/** Throws OutputSchemaError for a schema that does not compile (the session handler reports it). */
function withStructuredOutput(tools: SessionTools, schema: Record<string, unknown> | null, deps: SessionToolDeps): void {
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
