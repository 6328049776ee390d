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
import type { DaemonUsage } from "../usage/daemon-usage.ts";
import { isDeferredTool } from "../deferral/is-deferred.ts";

export interface SessionToolDeps {
  pool: () => Pool;
  engine: ToolSearchEngine;
  pendingServers: () => readonly string[];
  killSwitch?: (tool: Tool, session: Session) => string | undefined;
  /** Starts a lazily started MCP server in the background (a `select:` of one of its tools). */
  warmServer?: (server: string) => void;
  /** Shared by every session's StructuredOutput: one compilation per distinct schema. */
  compiler: JsonSchemaCompiler;
  /** Usage history: records searches, ranks with the workspace's prior, promotes its most used tools. */
  usage?: DaemonUsage<Session>;
}

export interface SessionTools {
  toolSearch: Tool;
  executeExtraTool: Tool;
  /** Names found by this session's own ToolSearch calls: counted as discovered for ExecuteExtraTool. */
  searched: Set<string>;
  /** The session's StructuredOutput, when its settings give an output schema. */
  structuredOutput?: Tool;
  /** The schema `structuredOutput` was built from (a re-opened session may change it). */
  outputSchema: Record<string, unknown> | null;
  /** Deferred tools this session loads as core (its workspace's most used), decided once here. */
  promoted: ReadonlySet<string>;
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
  const lookup = (name: string) => deps.pool().get(name);
  const permissions = (): PermissionSettings => session.settings.permissions;
  const base = deps.usage ? deps.usage.searchEngine(session, deps.engine) : deps.engine;
  const promoted = decided !== "standard" && deps.usage ? deps.usage.promoted(session) : new Set<string>();
  const stillDeferred = (tool: Tool) => isDeferredTool(tool) && !promoted.has(tool.name);
  const engine: ToolSearchEngine = {
    query(text, options) {
      const result = base.query(text, options);
      // A bridge or harness that sends no transcript still gets what its own searches found.
      // discover: shows schemas without discovering (SPEC §7), so it marks nothing found.
      if (result.kind !== "discover") for (const match of result.matches) searched.add(match.name);
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
    outputSchema: null,
    promoted,
    toolSearch: createToolSearchTool({
      engine,
      lookup,
      delivery,
      ...(promoted.size > 0 && { isDeferred: stillDeferred }),
      pendingServers: deps.pendingServers,
      defaultMaxResults: session.settings.runtime.searchMaxResults,
    }),
    executeExtraTool: createExecuteExtraTool({
      lookup,
      ...(promoted.size > 0 && { isDeferred: stillDeferred }),
      discovered: () => new Set([...session.discovered, ...searched]),
      execute: (name, input, context) =>
        pipelineExecutor({
          lookup,
          permissions: permissions(),
          ...(deps.killSwitch && { killSwitch: (tool: Tool) => deps.killSwitch?.(tool, session) }),
        })(name, input, context),
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
