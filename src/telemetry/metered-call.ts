/**
 * One tool call, timed and counted: the duration from start to result, and the outcome — `refused`
 * when the pipeline turned the call away (unknown tool, kill switch, permission), `error` for a
 * result with isError, else `ok`. With metrics off it only runs the call.
 */
import type { ToolResult } from "../tool/result.ts";
import type { McpInfo } from "../tool/tool.ts";
import type { CallOutcome, Metrics } from "./metrics.ts";

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
  /** `refused` is for the pipeline's onRefused. */
  run: (refused: () => void) => Promise<ToolResult>,
): Promise<ToolResult> {
  if (!metrics.enabled) return run(() => {});
  const started = performance.now();
  let refused = false;
  let outcome: CallOutcome = "error";
  try {
    const result = await run(() => {
      refused = true;
    });
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
