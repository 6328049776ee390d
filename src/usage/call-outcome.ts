/**
 * What a call's result says about how it went: an error, a timeout, a truncated output. Read
 * from the result the pipeline returned (its wording is the pipeline's contract with the model),
 * because the pipeline reports these only as text today.
 */
import type { ToolResult } from "../tool/result.ts";

/** The pipeline's own deadline, the MCP request timeout, and the hard cap on any MCP call. */
const TIMEOUT_WORDING = [/ timed out after .* and was stopped\.$/, /did not answer .* within .*so the call was cancelled\.$/, /the hard limit for any call/];
const TRUNCATION_MARK = "\n[toolpool: output truncated";

export function callOutcome(result: ToolResult): { isError: boolean; timedOut: boolean; truncated: boolean } {
  const texts = result.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
  const first = texts[0] ?? "";
  return {
    isError: result.isError,
    timedOut: result.isError && TIMEOUT_WORDING.some((pattern) => pattern.test(first.slice(0, 2_000))),
    truncated: texts.some((text) => text.startsWith(TRUNCATION_MARK)),
  };
}
