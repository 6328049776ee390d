/**
 * MCP 2026-07-28 Multi Round-Trip Requests, the client's side: a `tools/call` answered with
 * `resultType: "input_required"` carries the server's questions (`inputRequests`, keyed by the
 * server's own names, each `{method, params}`) and maybe an opaque `requestState`; the caller's
 * answers go back in a retry of the same call (`inputResponses` under the same keys, `requestState`
 * echoed unread). Each question goes to the caller of the call (question-routing.ts `askFor`); one
 * that cannot be answered ends the call with a tool error naming it. Bounded: keys per round,
 * rounds per call, the size of the state echoed.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { QuestionChannel } from "../protocol/server-question.ts";
import { askFor, type OpenCall } from "./question-routing.ts";

/** Questions in one `input_required` result at most. */
export const MAX_INPUT_REQUESTS = 16;
/** Rounds of questions in one call at most (a server that keeps asking is stopped). */
export const MAX_INPUT_ROUNDS = 8;
/** The opaque `requestState` echoed back at most this long. */
export const MAX_REQUEST_STATE_CHARS = 64 * 1024;

/** What the call declares in `_meta` to a 2026 server: only the kinds its caller can answer. */
export function declaredCapabilities(questions: QuestionChannel | undefined): Record<string, unknown> {
  return {
    ...(questions?.kinds.has("elicitation") && { elicitation: { form: {} } }),
    ...(questions?.kinds.has("sampling") && { sampling: {} }),
  };
}

/** A call answered with a task (the tasks extension, or 2025-11-25 tasks) it did not ask for. */
export function unaskedTask(tool: string): string {
  return `The server answered ${tool} with a task (MCP's tasks), which toolpool did not ask for and does not follow; the call was not completed.`;
}

export function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

/** The retry's extra params (`inputResponses`, `requestState`), or the tool error's text. */
export async function answerInputRequests(call: OpenCall, server: string, result: Record<string, unknown>): Promise<Record<string, unknown> | string> {
  const requests = result.inputRequests;
  const state = result.requestState;
  if (state !== undefined && (typeof state !== "string" || state.length > MAX_REQUEST_STATE_CHARS)) {
    return `The server asked for input while running ${call.tool} with a requestState that is not a string of at most ${MAX_REQUEST_STATE_CHARS} characters; the call was not completed.`;
  }
  if (requests !== undefined && !isObject(requests)) return `The server asked for input while running ${call.tool}, but its inputRequests is not an object; the call was not completed.`;
  const entries = Object.entries(requests ?? {});
  if (entries.length > MAX_INPUT_REQUESTS) return `The server asked ${entries.length} questions at once while running ${call.tool}, over the limit of ${MAX_INPUT_REQUESTS}; the call was not completed.`;
  // Keyed by the server's own names: without a prototype, a question named "__proto__" is an own key too.
  const responses: Record<string, unknown> = Object.create(null);
  // One at a time: a person answers one question after another.
  for (const [key, request] of entries) {
    if (!isObject(request) || typeof request.method !== "string") return `The server's input request ${JSON.stringify(key.slice(0, 64))} while running ${call.tool} has no method; the call was not completed.`;
    const params = isObject(request.params) ? request.params : {};
    try {
      responses[key] = await askFor(call, server, request.method, params);
    } catch (error) {
      if (call.signal.aborted) throw error;
      return `The call to ${call.tool} was not completed: ${call.refusals.at(-1) ?? (error as Error).message}.`;
    }
  }
  return { ...(entries.length > 0 && { inputResponses: responses }), ...(state !== undefined && { requestState: state }) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
