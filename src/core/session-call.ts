/**
 * One tool call of a session, as the core runs it: the profile check, the session's counters, then
 * the one pipeline (`executeTool`) under the session's rules, ordering and discoveries — metered,
 * recorded in the usage history, and logged when the pipeline refuses it.
 */
import { isDeferredTool } from "../deferral/is-deferred.ts";
import { outsideProfile } from "../pool/profile.ts";
import type { Pool } from "../pool/assemble.ts";
import { logRefusal } from "../runtime/event-logs.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Session } from "../session/session.ts";
import { meteredCall } from "../telemetry/metered-call.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import { executeTool } from "../pipeline/execute.ts";
import { errorResult, type ToolResult } from "../tool/result.ts";
import type { QuestionChannel } from "../protocol/server-question.ts";
import type { ProgressUpdate, Tool } from "../tool/tool.ts";
import type { DaemonUsage } from "../usage/daemon-usage.ts";
import { deliveryOf } from "./session-delivery.ts";

export interface SessionCallDeps {
  pool: Pool;
  lookup: (name: string) => Tool | undefined;
  killSwitch: (tool: Tool) => string | undefined;
  metrics: Metrics;
  usage: DaemonUsage<Session>;
  logger: Logger;
  stats: { callsTotal: number; callsInFlight: number };
  /**
   * The operator's roots (settings.ts `operatorRoots`): relative deny rules are read against them
   * too, and, when the config names them, the config's relative allow rules against them alone.
   */
  operatorRoots: { roots: readonly string[]; configured: boolean };
}

export async function runSessionCall(
  deps: SessionCallDeps,
  session: Session,
  name: string,
  input: unknown,
  signal: AbortSignal,
  onProgress?: (update: ProgressUpdate) => void,
  questions?: QuestionChannel,
): Promise<ToolResult> {
  const named = deps.lookup(name);
  // A tool outside the session's profile is refused with that reason (not "unknown"); one the
  // session has is inside it, so the profile is only asked about a name the lookup did not find.
  const outside = named ? undefined : outsideProfile(deps.pool, session.settings.profile, name);
  if (outside) {
    logRefusal(deps.logger, session.id, { kind: "permission_denied", tool: name, reason: outside });
    return errorResult(outside);
  }
  session.callStarted();
  deps.stats.callsTotal++;
  deps.stats.callsInFlight++;
  // Counted as the tool named; a call through ExecuteExtraTool also counts as its target, with `via`.
  let routed: { tool: Tool; via: string } | undefined;
  const delivery = () => deliveryOf(session);
  const recorded = deps.usage.call(session, name, input);
  const started = performance.now();
  try {
    const result = await meteredCall(deps.metrics, { tool: named, delivery }, (refused, traceparent) =>
      recorded(() =>
        executeTool(
          name,
          input,
          {
            signal,
            sessionId: session.id,
            ...(session.client !== undefined && { clientId: session.client }),
            workspaceRoots: session.settings.workspaceRoots,
            ...(session.rootPins && { rootPins: session.rootPins }),
            cwd: session.settings.cwd,
            sessionState: session.toolState,
            ...(onProgress && { onProgress }),
            ...(questions && { questions }),
            ...(traceparent && { traceparent }),
          },
          {
            lookup: deps.lookup,
            permissions: {
              ...session.settings.permissions,
              ruleRoots: [...deps.operatorRoots.roots, ...session.settings.workspaceRoots],
              ...(deps.operatorRoots.configured && { allowRoots: deps.operatorRoots.roots }),
            },
            killSwitch: deps.killSwitch,
            // A session of independent (stateless) requests runs each call as it comes.
            schedule: (exclusive, task) => (session.settings.concurrentCalls ? task() : session.scheduler.run(exclusive, task)),
            isDeferred: isDeferredTool,
            discovery: { has: (tool) => session.hasDiscovered(tool), add: (tool) => session.markFound(tool) },
            onResolved: (tool, router) => {
              if (router) routed = { tool, via: router.name };
            },
            onRefused: (refusal) => {
              refused();
              logRefusal(deps.logger, session.id, refusal);
            },
          },
        ),
      ),
    );
    if (routed && deps.metrics.enabled) {
      const { tool, via } = routed;
      deps.metrics.call({ tool: tool.name, server: tool.mcpInfo?.server, durationMs: performance.now() - started, outcome: result.isError ? "error" : "ok", delivery: delivery(), via });
    }
    return result;
  } finally {
    deps.stats.callsInFlight--;
  }
}
