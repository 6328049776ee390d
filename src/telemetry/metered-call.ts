/**
 * One tool call, timed and counted: the duration from start to result, and the outcome — `refused`
 * when the pipeline turned the call away (unknown tool, kill switch, permission), `error` for a
 * result with isError, else `ok`. With telemetry on the call is also a span (trace-context.ts):
 * `run` gets its `traceparent`, which the MCP requests the call makes carry. With metrics off it
 * only runs the call.
 */
import type { ToolResult } from "../tool/result.ts";
import type { McpInfo } from "../tool/tool.ts";
import type { CallOutcome, Metrics } from "./metrics.ts";
import { formatTraceparent, startSpan } from "./trace-context.ts";

export interface MeteredTarget {
  /** The pool's tool, or undefined when the name matched none (the name itself is never recorded). */
  tool: { name: string; mcpInfo?: McpInfo | undefined } | undefined;
  /** Read only when metrics are on: deciding a delivery costs a little. */
  delivery: () => string;
  /** Set for a call that ExecuteExtraTool made on the model's behalf. */
  via?: string;
}

export async function meteredCall(
  metrics: Metrics,
  target: MeteredTarget,
  /** `refused` is for the pipeline's onRefused; `traceparent` is the call's span, with telemetry on. */
  run: (refused: () => void, traceparent?: string) => Promise<ToolResult>,
): Promise<ToolResult> {
  if (!metrics.enabled) return run(() => {});
  const traceparent = formatTraceparent(startSpan());
  const started = performance.now();
  let refused = false;
  let outcome: CallOutcome = "error";
  try {
    const result = await run(() => {
      refused = true;
    }, traceparent);
    outcome = refused ? "refused" : result.isError ? "error" : "ok";
    return result;
  } finally {
    metrics.call({
      tool: target.tool?.name,
      server: target.tool?.mcpInfo?.server,
      durationMs: performance.now() - started,
      outcome,
      delivery: target.delivery(),
      ...(target.via && { via: target.via }),
    });
  }
}
