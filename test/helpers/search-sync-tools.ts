/** What the SearchSync tests (scheduler, impact sweep, query warm-up) share: a pool tool, a turn of the event loop and a hand-driven thread. */
import type { Tool } from "../../src/tool/tool.ts";

/** A pool tool of `server` with one string parameter; only its name and words matter to the index. */
export function poolTool(name: string, description: string, server = "srv"): Tool {
  return { name: `mcp__${server}__${name}`, description, inputJSONSchema: { type: "object", properties: { city: { type: "string" } } }, aliases: [], mcpInfo: { server, tool: name } } as unknown as Tool;
}

/** Lets whatever is queued on the event loop (a resolved yield, a timer of 0) run. */
export async function settle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A thread under the test's control for SearchSync's `yieldThread` (with a clock that ticks once per
 * reading for its `now`): each yield parks until `release()` lets the next slice run.
 */
export class HandDrivenThread {
  private readonly waiting: (() => void)[] = [];
  private clock = 0;
  readonly now = (): number => this.clock++;
  readonly yieldThread = (): Promise<void> => new Promise<void>((resolve) => this.waiting.push(resolve));

  /** How many yields are waiting. */
  get parked(): number {
    return this.waiting.length;
  }

  /** Lets the oldest waiting yield go, then lets the promises it settled run. */
  async release(): Promise<void> {
    const next = this.waiting.shift();
    if (next === undefined) throw new Error("nothing is waiting for the thread");
    next();
    await settle();
  }

  /** Releases until nothing waits. */
  async drain(): Promise<void> {
    while (this.waiting.length > 0) await this.release();
  }
}
