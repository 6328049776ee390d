/**
 * A server's questions, routed to the call that caused them. A 2025 server sends `elicitation/create`
 * or `sampling/createMessage` as a request of its own, and over stdio nothing on the wire says which
 * of our `tools/call` requests it belongs to: it goes to the one call in flight on the connection.
 * While several are, it goes to them only when they all have the same asker (one connection's one
 * session: the same person, whichever call asked), and is refused, saying why, when they come from
 * different callers or one of them cannot be asked — never guessed. A 2026-07-28 server returns its questions inside
 * an `input_required` result (stateless-connection.ts), which names its call by construction.
 *
 * Whatever is refused is remembered on the call, and the call's result says so first: the model
 * sees what the server asked and why nobody could answer it, not only the server's own complaint.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { withElicitationDefaults } from "./elicitation-defaults.ts";
import { describeQuestion, QuestionRefused, questionKind, refusalOf, type QuestionChannel } from "../protocol/server-question.ts";

export interface OpenCall {
  readonly tool: string;
  readonly questions: QuestionChannel | undefined;
  readonly signal: AbortSignal;
  /** What the server asked that could not be answered, for the result. */
  readonly refusals: string[];
}

export class QuestionRouter {
  readonly #calls = new Set<OpenCall>();

  constructor(private readonly server: string) {}

  begin(tool: string, questions: QuestionChannel | undefined, signal: AbortSignal): OpenCall {
    const call: OpenCall = { tool, questions, signal, refusals: [] };
    this.#calls.add(call);
    return call;
  }

  end(call: OpenCall): void {
    this.#calls.delete(call);
  }

  /** A server's request: the caller's answer, or a QuestionRefused the server is answered with. */
  async answer(method: string, request: Record<string, unknown>): Promise<Record<string, unknown>> {
    const params = request;
    if (this.#calls.size === 0) {
      throw new QuestionRefused(`${describeQuestion(method, params)} arrived while no call of this server was in flight; toolpool relays a question only to the caller whose call caused it`);
    }
    const calls = [...this.#calls];
    if (calls.length === 1) return askFor(calls[0]!, this.server, method, params);
    const shared = sharedAsker(calls);
    if (typeof shared === "string") {
      const message = `${describeQuestion(method, params)} arrived while ${calls.length} calls of this server were in flight ${shared}, and a request over this transport does not say which call it belongs to; toolpool does not guess whom to ask (set maxConcurrent: 1 on a server that asks questions)`;
      // Not recorded on any call: which one asked is what nobody knows (the server's own error says it).
      throw new QuestionRefused(message);
    }
    return askFor(shared, this.server, method, params);
  }
}

/**
 * The call to put a question to when every open call has the same asker: the oldest one still
 * running (the likeliest to outlive the answer), named by all the calls' tools. Otherwise why not.
 */
function sharedAsker(calls: readonly OpenCall[]): OpenCall | string {
  const owners = new Set(calls.map((call) => call.questions?.owner));
  if (owners.has(undefined)) {
    const silent = calls.filter((call) => call.questions?.owner === undefined).length;
    return `and ${silent} of them came from a caller that answers no questions`;
  }
  if (owners.size > 1) return `for ${owners.size} different callers`;
  const chosen = calls.find((call) => !call.signal.aborted) ?? calls[0]!;
  const tools = [...new Set(calls.map((call) => call.tool))];
  return { ...chosen, tool: tools.length === 1 ? tools[0]! : `one of ${tools.join(", ")}` };
}

/** Puts one question to the call's caller; a refusal is recorded on the call and thrown. */
export async function askFor(call: OpenCall, server: string, method: string, request: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { _meta: _dropped, ...params } = request;
  const kind = questionKind(method);
  const refusal = "task" in params ? `the server asked ${describeQuestion(method, params)} as a task (the tasks extension), which toolpool does not relay` : refusalOf(call.questions, kind, method, params);
  if (refusal !== undefined || kind === undefined || !call.questions) {
    const message = refusal ?? `the server asked ${describeQuestion(method, params)}, which nobody could answer`;
    call.refusals.push(message);
    throw new QuestionRefused(message, kind === undefined ? -32601 : -32600);
  }
  try {
    const answer = await call.questions.ask({ kind, method, params, server, tool: call.tool }, call.signal);
    return kind === "elicitation" ? withElicitationDefaults(params, answer) : answer;
  } catch (error) {
    if (call.signal.aborted) throw error;
    const message = `the server asked ${describeQuestion(method, params)}, and the answer did not come: ${(error as Error).message}`;
    call.refusals.push(message);
    throw new QuestionRefused(message, error instanceof QuestionRefused ? error.code : -32603);
  }
}

/** The server's result, led by what it asked that nobody answered (then it is an error). */
export function withRefusals(result: CallToolResult, refusals: readonly string[]): CallToolResult {
  if (refusals.length === 0) return result;
  const lead = `toolpool: ${refusals.join("; ")}.`;
  return { ...result, isError: true, content: [{ type: "text", text: lead }, ...(Array.isArray(result.content) ? result.content : [])] };
}
