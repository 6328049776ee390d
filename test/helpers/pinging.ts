import type { RawClient } from "./raw-client.ts";

/**
 * Pings on `client`'s own connection, back to back (or `pauseMs` apart), until stopped: what a
 * second client sees while another is served. `stop()` gives the slowest answer in ms —
 * Infinity when a ping failed (a daemon that could not answer at all).
 */
export function pinging(client: RawClient, pauseMs = 0): { stop: () => Promise<number> } {
  let done = false;
  let slowest = 0;
  const loop = (async () => {
    while (!done) {
      const started = performance.now();
      try {
        await client.request("ping");
      } catch {
        slowest = Number.POSITIVE_INFINITY;
        return;
      }
      slowest = Math.max(slowest, performance.now() - started);
      client.messages.length = 0;
      if (pauseMs > 0) await Bun.sleep(pauseMs);
    }
  })();
  return {
    stop: async () => {
      done = true;
      await loop;
      return slowest;
    },
  };
}
