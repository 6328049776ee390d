/**
 * `toolpool/search` (the CLI's and a harness's search): the one index, over a named session's own
 * tools (session-view.ts) when it names one, else the whole pool. A session's answer is filtered by
 * the same rule as its model's ToolSearch (`withinSession`): no match, select, exact name or
 * suggestion outside its profile. Unlike ToolSearch it records nothing on the session.
 */
import { pageWordProblem } from "../builtin/tool-search-page.ts";
import { isDeferredTool } from "../deferral/is-deferred.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import type { SearchResult } from "../protocol/methods.ts";
import type { Pool } from "../pool/assemble.ts";
import type { QueryOptions, QueryResult } from "../search/types.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import type { Tool } from "../tool/tool.ts";
import { withinSession } from "./session-tools.ts";
import type { SessionView } from "./session-view.ts";

export interface SessionSearchDeps {
  query: (text: string, options?: QueryOptions) => QueryResult;
  pool: Pool;
  pendingServers: readonly string[];
  /** An MCP tool whose server waits for `toolpool auth login`: found, and marked. */
  needsAuth: (tool: Tool) => boolean;
  metrics: Metrics;
}

export function searchTools(deps: SessionSearchDeps, params: { query: string; maxResults?: number | undefined }, view: SessionView | undefined): SearchResult {
  // A page that does not exist is the request's fault, as in ToolSearch (tool-search-page.ts): not a keyword search.
  const pageProblem = pageWordProblem(params.query);
  if (pageProblem !== undefined) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: field "query": ${pageProblem}`);
  const pool = view ? view.pool : deps.pool;
  const lookup = (name: string) => pool.get(name);
  const raw = deps.query(params.query, {
    ...(view && { filter: (name: string) => lookup(name) !== undefined, scope: (name: string) => lookup(name) !== undefined }),
    ...(params.maxResults !== undefined && { maxResults: params.maxResults }),
    pendingServers: deps.pendingServers,
  });
  const result = view ? withinSession(raw, lookup) : raw;
  deps.metrics.search({ kind: result.kind, results: result.matches.length, source: "cli" });
  return {
    ...result,
    matches: result.matches.flatMap((match) => {
      const tool = lookup(match.name);
      if (!tool) return [];
      return [{
        ...match,
        description: tool.description,
        deferred: isDeferredTool(tool),
        ...(tool.mcpInfo && { server: tool.mcpInfo.server }),
        ...(deps.needsAuth(tool) && { needsAuth: true }),
      }];
    }),
  };
}
