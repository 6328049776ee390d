/**
 * Steps of the daemon's shutdown (SPEC §11) that do not need the daemon itself: letting the calls
 * in flight finish, cancelling (and answering) those that do not, and running a closing step whose
 * failure must not stop the ones after it.
 */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { DRAIN_TIMEOUT_MS } from "../protocol/limits.ts";
import type { Peer } from "./peer.ts";
import type { Logger } from "../runtime/logger.ts";

/** How long cancelled calls get to wind down before their connections close. */
const CANCEL_GRACE_MS = 1_000;

/** The answer of a request still running when the drain ran out: cancelled, not lost. */
function shutdownCancelled(drainMs: number): RpcError {
  return new RpcError(
    ErrorCode.ShuttingDown,
    `The daemon is shutting down; this request was still running after the ${drainMs / 1000} s drain and was cancelled`,
  );
}

/**
 * Waits up to the drain time (SPEC §11: 5 s; tests pass a shorter one) for the calls in flight to
 * finish; the rest are cancelled, which answers each of them -32001 (the dispatcher sends the abort
 * reason), and get a short grace.
 */
export async function drainRequests(connections: Iterable<Peer>, inFlight: () => number, logger: Logger, drainMs = DRAIN_TIMEOUT_MS): Promise<void> {
  if (await waitForDrain(inFlight, drainMs)) return;
  logger.warn("drain timed out; cancelling the calls still running", { inFlight: inFlight() });
  const cancelled = shutdownCancelled(drainMs);
  for (const connection of connections) {
    for (const controller of connection.inFlight.values()) controller.abort(cancelled);
  }
  await waitForDrain(inFlight, CANCEL_GRACE_MS);
}

/** Runs one closing step; a failure is logged, never thrown, so the steps after it still run. */
export async function settleStep(logger: Logger, what: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (error) {
    logger.error(`${what} failed during shutdown`, { error: error instanceof Error ? error.message : String(error) });
  }
}

async function waitForDrain(inFlight: () => number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (inFlight() > 0 && Date.now() < deadline) await Bun.sleep(20);
  return inFlight() === 0;
}
