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
 * Bounded per call: a 2025 server's requests are not counted by anything else, so a call is put at
 * most MAX_QUESTIONS_PER_CALL questions (a 2026 server's most: 16 a round, 8 rounds) and keeps the
 * first MAX_REFUSALS_KEPT refusals' text, counting the rest — a server flooding questions costs
 * the daemon a counter, not a message each.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { withElicitationDefaults } from "./elicitation-defaults.ts";
import { describeQuestion, QuestionRefused, questionKind, refusalOf, type QuestionChannel, type QuestionKind } from "../protocol/server-question.ts";

export interface OpenCall {
  readonly tool: string;
  readonly questions: QuestionChannel | undefined;
  readonly signal: AbortSignal;
  /** What the server asked that could not be answered, for the result (the first MAX_REFUSALS_KEPT). */
  readonly refusals: string[];
  /**
   * Questions the server put to this call so far, and refusals past the kept ones. One object made
   * with the call: the copy a shared asker is asked through (sharedAsker) counts into it too.
   */
  readonly tally: { questions: number; unrecorded: number };
}

/** Questions one call may be put at most; past it each is refused without asking anyone. */
export const MAX_QUESTIONS_PER_CALL = 128;
/** Refusals whose text a call's result carries; past it they are counted. */
export const MAX_REFUSALS_KEPT = 4;

export class QuestionRouter {
  readonly #calls = new Set<OpenCall>();

  constructor(private readonly server: string) {}

  begin(tool: string, questions: QuestionChannel | undefined, signal: AbortSignal): OpenCall {
    const call = openCall(tool, questions, signal);
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
    const shared = sharedAsker(calls, questionKind(method));
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
 * running that answers the kind asked (the likeliest to outlive the answer), named by all the
 * calls' tools. Otherwise why not.
 */
function sharedAsker(calls: readonly OpenCall[], kind: QuestionKind | undefined): OpenCall | string {
  const owners = new Set(calls.map((call) => call.questions?.owner));
  if (owners.has(undefined)) {
    const silent = calls.filter((call) => call.questions?.owner === undefined).length;
    return `and ${silent} of them came from a caller that answers no questions`;
  }
  if (owners.size > 1) return `for ${owners.size} different callers`;
  const running = calls.filter((call) => !call.signal.aborted);
  const chosen = running.find((call) => kind !== undefined && call.questions?.kinds.has(kind)) ?? running[0] ?? calls[0]!;
  const tools = [...new Set(calls.map((call) => call.tool))];
  return { ...chosen, tool: tools.length === 1 ? tools[0]! : `one of ${tools.join(", ")}` };
}

export function openCall(tool: string, questions: QuestionChannel | undefined, signal: AbortSignal): OpenCall {
  return { tool, questions, signal, refusals: [], tally: { questions: 0, unrecorded: 0 } };
}

/** Puts one question to the call's caller; a refusal is recorded on the call and thrown. */
export async function askFor(call: OpenCall, server: string, method: string, request: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { _meta: _dropped, ...params } = request;
  const kind = questionKind(method);
  if (++call.tally.questions > MAX_QUESTIONS_PER_CALL) {
    record(call, `the server asked more than ${MAX_QUESTIONS_PER_CALL} questions in this call, and toolpool relays no more than that`);
    throw new QuestionRefused(`toolpool relays at most ${MAX_QUESTIONS_PER_CALL} questions per call`, -32600);
  }
  const refusal = "task" in params ? `the server asked ${describeQuestion(method, params)} as a task (the tasks extension), which toolpool does not relay` : refusalOf(call.questions, kind, method, params);
  if (refusal !== undefined || kind === undefined || !call.questions) {
    const message = refusal ?? `the server asked ${describeQuestion(method, params)}, which nobody could answer`;
    record(call, message);
    throw new QuestionRefused(message, kind === undefined ? -32601 : -32600);
  }
  try {
    const answer = await call.questions.ask({ kind, method, params, server, tool: call.tool }, call.signal);
    return kind === "elicitation" ? withElicitationDefaults(params, answer) : answer;
  } catch (error) {
    if (call.signal.aborted) throw error;
    const message = `the server asked ${describeQuestion(method, params)}, and the answer did not come: ${(error as Error).message}`;
    record(call, message);
    throw new QuestionRefused(message, error instanceof QuestionRefused ? error.code : -32603);
  }
}

/** Keeps the refusal's text while the call has fewer than MAX_REFUSALS_KEPT, else counts it. */
function record(call: OpenCall, message: string): void {
  if (call.refusals.length < MAX_REFUSALS_KEPT) call.refusals.push(message);
  else call.tally.unrecorded++;
}

/** The server's result, led by what it asked that nobody answered (then it is an error). */
export function withRefusals(result: CallToolResult, call: Pick<OpenCall, "refusals" | "tally">): CallToolResult {
  const { refusals } = call;
  if (refusals.length === 0) return result;
  const more = call.tally.unrecorded;
  const lead = `toolpool: ${refusals.join("; ")}${more > 0 ? `; and ${more} more of its questions were refused` : ""}.`;
  return { ...result, isError: true, content: [{ type: "text", text: lead }, ...(Array.isArray(result.content) ? result.content : [])] };
}
