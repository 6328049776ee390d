/**
 * The one typed method table: for every request method, its params schema (validated at the door)
 * and its result type. The dispatcher registers handlers against it and the client sends requests
 * through it, so a handler that returns the wrong shape, or a client that expects one, fails the
 * type-check instead of drifting (docs/protocol.md describes each method).
 */
import type { z } from "zod";
import { Method } from "./method-names.ts";
import { explainParams, type Explanation } from "./explain.ts";
import { historyClearParams, statsParams } from "./usage-methods.ts";
import type { HistoryClearResult, StatsResult } from "./stats-result.ts";
import {
  answerParams,
  assembleParams,
  authLoginParams,
  authNameParams,
  authStatusParams,
  callParams,
  cronAckParams,
  cronSubscribeParams,
  emptyParams,
  flagsParams,
  initializeParams,
  mcpToolsCallParams,
  mcpToolsListParams,
  subscriptionsListenParams,
  noParams,
  prefetchParams,
  searchParams,
  serverNameParams,
  sessionParams,
  sessionRefParams,
  toolsParams,
  type AssembleResult,
  type AuthLoginResult,
  type AuthStatusSummary,
  type ProjectSummaryResult,
  type ServerSummary,
  type CallResult,
  type CompactResult,
  type FlagsResult,
  type InitializeResult,
  type McpToolsCallResult,
  type McpToolsListResult,
  type DiscoverResult,
  type RevisionResultFields,
  type PrefetchResult,
  type SearchResult,
  type ServerLogsResult,
  type ServerRestartResult,
  type ServersResult,
  type SessionResult,
  type StatusResult,
  type ToolsResult,
} from "./methods.ts";
import type { SessionsResult } from "./sessions-result.ts";

/** Params schemas by method; the result types ride along in `MethodResults`. */
export const METHOD_PARAMS = {
  [Method.Initialize]: initializeParams,
  [Method.Ping]: emptyParams,
  [Method.Sessions]: emptyParams,
  [Method.ToolsList]: mcpToolsListParams,
  [Method.ToolsCall]: mcpToolsCallParams,
  [Method.ServerDiscover]: emptyParams,
  [Method.SubscriptionsListen]: subscriptionsListenParams,
  [Method.Session]: sessionParams,
  [Method.Assemble]: assembleParams,
  [Method.Call]: callParams,
  [Method.Search]: searchParams,
  [Method.Compact]: assembleParams,
  [Method.TurnStarted]: prefetchParams,
  [Method.Prefetch]: prefetchParams,
  [Method.Status]: sessionRefParams,
  [Method.Tools]: toolsParams,
  [Method.Servers]: sessionRefParams,
  [Method.ServerLogs]: serverNameParams,
  [Method.ServerRestart]: serverNameParams,
  [Method.Flags]: flagsParams,
  [Method.Shutdown]: noParams,
  [Method.CronSubscribe]: cronSubscribeParams,
  [Method.CronAck]: cronAckParams,
  [Method.Explain]: explainParams,
  [Method.AuthLogin]: authLoginParams,
  [Method.AuthWait]: authNameParams,
  [Method.AuthStatus]: authStatusParams,
  [Method.AuthLogout]: authNameParams,
  [Method.Projects]: noParams,
  [Method.ProjectsRescan]: noParams,
  [Method.Stats]: statsParams,
  [Method.HistoryClear]: historyClearParams,
  [Method.Answer]: answerParams,
} as const;

export interface MethodResults {
  [Method.Initialize]: InitializeResult;
  [Method.Ping]: Record<string, never>;
  [Method.ToolsList]: McpToolsListResult;
  [Method.ToolsCall]: McpToolsCallResult;
  [Method.ServerDiscover]: DiscoverResult;
  [Method.SubscriptionsListen]: RevisionResultFields;
  [Method.Session]: SessionResult;
  [Method.Assemble]: AssembleResult;
  [Method.Call]: CallResult;
  [Method.Search]: SearchResult;
  [Method.Compact]: CompactResult;
  [Method.TurnStarted]: { started: boolean };
  [Method.Prefetch]: PrefetchResult;
  [Method.Status]: StatusResult;
  [Method.Sessions]: SessionsResult;
  [Method.Tools]: ToolsResult;
  [Method.Servers]: ServersResult;
  [Method.ServerLogs]: ServerLogsResult;
  [Method.ServerRestart]: ServerRestartResult;
  [Method.Flags]: FlagsResult;
  [Method.Shutdown]: { stopping: boolean };
  [Method.CronSubscribe]: { subscribed: boolean; jobId: string; sessionId: string };
  [Method.CronAck]: { acked: number };
  [Method.Explain]: Explanation;
  [Method.AuthLogin]: AuthLoginResult;
  [Method.AuthWait]: { name: string; loggedIn: boolean; server: ServerSummary | undefined };
  [Method.AuthStatus]: { servers: AuthStatusSummary[] };
  [Method.AuthLogout]: { name: string; loggedOut: boolean; server: ServerSummary | undefined };
  [Method.Projects]: { projects: ProjectSummaryResult[] };
  [Method.ProjectsRescan]: { projects: ProjectSummaryResult[] };
  [Method.Stats]: StatsResult;
  [Method.HistoryClear]: HistoryClearResult;
  [Method.Answer]: { answered: boolean };
}

export type MethodName = keyof typeof METHOD_PARAMS & keyof MethodResults;
/** What a client sends (schema input: defaults may be left out). */
export type ParamsOf<M extends MethodName> = z.input<(typeof METHOD_PARAMS)[M]>;
/** What a handler receives (schema output: defaults applied). */
export type ParsedParamsOf<M extends MethodName> = z.output<(typeof METHOD_PARAMS)[M]>;
export type ResultOf<M extends MethodName> = MethodResults[M];

/** Every key of every member of a union (`keyof` of a union gives only the keys all members share). */
type AnyKey<T> = T extends unknown ? keyof T : never;
/** `T[K]` across a union's members that have K. */
type ValueAt<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/**
 * The paths (`tools.enabled`, `collisions.extra`) of fields a value of type `Actual` has and the
 * declared `Declared` lacks, down to the leaves (through arrays, optional fields and unions);
 * `never` when there is none. The dispatcher refuses a handler whose result has any: a field
 * the table does not declare would reach clients untyped.
 */
export type ExtraFields<Actual, Declared> = Actual extends readonly (infer Item)[]
  ? ExtraFields<Item, Declared extends readonly (infer DeclaredItem)[] ? DeclaredItem : never>
  : Actual extends object
    ? [Declared] extends [never]
      ? never
      : unknown extends Declared
        ? never
        : {
            [K in keyof Actual & string]-?: K extends AnyKey<NonNullable<Declared>>
              ? (unknown extends ValueAt<NonNullable<Declared>, K> ? never : ExtraFields<NonNullable<Actual[K]>, NonNullable<ValueAt<NonNullable<Declared>, K>>>) extends infer Inner
                ? [Inner] extends [never]
                  ? never
                  : `${K}.${Inner & string}`
                : never
              : K;
          }[keyof Actual & string]
    : never;
