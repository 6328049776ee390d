/** Small tools for daemon tests: their behaviour is the point, not their usefulness. */
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";

export const echoTool = buildTool({
  name: "Echo",
  description: "Returns its text.",
  inputSchema: z.strictObject({ text: z.string() }),
  isConcurrencySafe: () => true,
  isReadOnly: true,
  call: async ({ text }) => textResult(text),
});

/** Waits until released or cancelled; counts how many run at once. */
export function gateTool(name = "Gate") {
  const state = { running: 0, maxRunning: 0, release: Promise.withResolvers<void>() };
  const tool = buildTool({
    name,
    description: "Waits until the test releases it.",
    inputSchema: z.strictObject({ label: z.string().optional() }),
    async call({ label }, { signal }) {
      state.running++;
      state.maxRunning = Math.max(state.maxRunning, state.running);
      try {
        await Promise.race([
          state.release.promise,
          new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true })),
        ]);
        return textResult(`released ${label ?? ""}`.trim());
      } finally {
        state.running--;
      }
    },
  });
  return { tool, state };
}

export const progressTool = buildTool({
  name: "Progress",
  description: "Reports three progress steps.",
  inputSchema: z.strictObject({}),
  isConcurrencySafe: () => true,
  async call(_input, { onProgress }) {
    for (let step = 1; step <= 3; step++) onProgress?.({ progress: step, total: 3, message: `step ${step}` });
    return textResult("done");
  },
});
