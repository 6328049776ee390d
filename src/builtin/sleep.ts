/** Sleep: a bounded, cancellable wait. Gated behind PROACTIVE; imported only inside that branch. */
import { z } from "zod";
import { buildTool, NO_PATHS } from "../tool/build-tool.ts";
import { textResult } from "../tool/result.ts";
import description from "./sleep.txt" with { type: "text" };

/** Hard upper bound on one wait: long enough for polling, short enough to never pin a session. */
export const MAX_SLEEP_SECONDS = 300;

const inputSchema = () =>
  z.strictObject({
    seconds: z
      .number()
      .positive()
      .max(MAX_SLEEP_SECONDS)
      .describe(`How long to wait, in seconds (at most ${MAX_SLEEP_SECONDS}).`),
  });

export const sleepTool = buildTool({
  name: "Sleep",
  description,
  searchHint: "pause wait delay seconds before polling again",
  inputSchema,
  access: () => NO_PATHS,
  shouldDefer: true,
  timeoutMs: (MAX_SLEEP_SECONDS + 5) * 1000,
  isConcurrencySafe: () => true,
  isReadOnly: true,
  async call({ seconds }, { signal }) {
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, seconds * 1000);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
    const waited = (performance.now() - started) / 1000;
    if (signal.aborted) return textResult(`Woke early after ${waited.toFixed(1)} s: the wait was cancelled.`);
    return textResult(`Waited ${waited.toFixed(1)} s.`);
  },
});
