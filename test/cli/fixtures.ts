/** Tools for the status view tests. */
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";

/** Enough deferred tools, with long enough descriptions, that deferring them saves tokens. */
export function manyDeferredTools(count: number): Tool[] {
  return Array.from({ length: count }, (_, index) =>
    buildTool({
      name: `Deferred${index}`,
      description: `Tool number ${index}. ${"It does something rather specific that takes a long description to explain. ".repeat(8)}`,
      inputSchema: z.strictObject({ value: z.string().describe("the value to work on") }),
      shouldDefer: true,
      call: async () => textResult("ok"),
    }),
  );
}
