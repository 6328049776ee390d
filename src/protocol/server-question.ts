/**
 * A question an MCP server puts to the person while one of its tools runs: an elicitation or a
 * sampling request (sent as a request by 2025 servers, returned inside an `input_required` result by
 * 2026-07-28 servers). The daemon never answers one itself: it travels to the caller whose call
 * caused it, through the call's `QuestionChannel`, and the caller's answer travels back. No I/O here.
 */

export type QuestionKind = "elicitation" | "sampling";

export const QUESTION_METHODS: Readonly<Record<QuestionKind, string>> = {
  elicitation: "elicitation/create",
  sampling: "sampling/createMessage",
};

export interface ServerQuestion {
  kind: QuestionKind;
  /** `elicitation/create` or `sampling/createMessage`, as the server named it. */
  method: string;
  /** The request's params as the server sent them (its `_meta` dropped). */
  params: Record<string, unknown>;
  server: string;
  tool: string;
}

/** What a caller can answer, and how its answer is fetched; absent on a call whose caller answers nothing. */
export interface QuestionChannel {
  readonly kinds: ReadonlySet<QuestionKind>;
  /**
   * Who is asked: one connection's one session. Calls whose channels name the same owner have the
   * same person behind them, so a question that cannot say which of them caused it may go there.
   */
  readonly owner?: string;
  /** Resolves with the caller's result for the request; rejects when withdrawn, refused or failed. */
  ask(question: ServerQuestion, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** A question's params past this size are refused (they are relayed whole to the caller). */
export const MAX_QUESTION_BYTES = 64 * 1024;
/** An answer past this size is refused (a sampling result is the largest a caller sends). */
export const MAX_ANSWER_BYTES = 256 * 1024;

/** The caller could not be asked, or gave an error instead of an answer: the message says which. */
export class QuestionRefused extends Error {
  constructor(
    message: string,
    /** The JSON-RPC code a 2025 server is answered with. */
    readonly code = -32600,
  ) {
    super(message);
  }
}

export function questionKind(method: string): QuestionKind | undefined {
  if (method === QUESTION_METHODS.elicitation) return "elicitation";
  if (method === QUESTION_METHODS.sampling) return "sampling";
  return undefined;
}

/** For errors: which request and the opening of what it asked, e.g. `elicitation/create ("Your name?")`. */
export function describeQuestion(method: string, params: Record<string, unknown>): string {
  const text = questionText(params);
  return text ? `${method.slice(0, 64)} (${JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text)})` : method.slice(0, 64);
}

function questionText(params: Record<string, unknown>): string | undefined {
  if (typeof params.message === "string") return params.message;
  const messages = params.messages;
  if (!Array.isArray(messages)) return undefined;
  const last = messages[messages.length - 1] as { content?: { text?: unknown } } | undefined;
  return typeof last?.content?.text === "string" ? last.content.text : undefined;
}

/** The caller's channel refuses this question: not declared, too large. Undefined when it may be asked. */
export function refusalOf(channel: QuestionChannel | undefined, kind: QuestionKind | undefined, method: string, params: Record<string, unknown>): string | undefined {
  const what = describeQuestion(method, params);
  if (kind === undefined) return `the server asked ${what}, which toolpool does not relay (only ${Object.values(QUESTION_METHODS).join(" and ")})`;
  if (!channel?.kinds.has(kind)) {
    return `the server asked ${what}, but the client that made this call did not declare the ${kind} capability, so nobody could answer it`;
  }
  // The pool declares only these to servers (form elicitation, sampling without tools): a server
  // asking past them is refused, never relayed to a caller whose capabilities cover more.
  if (kind === "elicitation" && params.mode !== undefined && params.mode !== "form") {
    return `the server asked ${what} in mode ${JSON.stringify(String(params.mode).slice(0, 40))}, which toolpool did not declare to it (only form elicitation is relayed)`;
  }
  if (kind === "sampling" && (params.tools !== undefined || params.toolChoice !== undefined)) {
    return `the server asked ${what} with tools, which toolpool did not declare to it (only sampling without tools is relayed)`;
  }
  // `thisServer`/`allServers` want the host's context of MCP servers: through the pool, what other servers gave it.
  if (kind === "sampling" && params.includeContext !== undefined && params.includeContext !== "none") {
    return `the server asked ${what} with includeContext ${JSON.stringify(String(params.includeContext).slice(0, 40))}, which toolpool did not declare to it (only sampling without context is relayed: the host would add what other servers gave it)`;
  }
  const size = JSON.stringify(params).length;
  if (size > MAX_QUESTION_BYTES) return `the server asked ${what} with ${size} bytes of params, over the ${MAX_QUESTION_BYTES}-byte limit`;
  return undefined;
}
