/**
 * Servers' questions on the socket (docs/protocol.md "Questions from servers"): a call whose request
 * names, in `_meta["toolpool/answers"]`, the kinds of question its client can answer may receive
 * `toolpool/question` notifications while it runs (each for that call only), and the client answers
 * each with a `toolpool/answer` request on the same connection. `toolpool/questionWithdrawn` says a
 * question is no longer wanted (the call ended, was cancelled or hit its deadline). Free of zod (the
 * client imports it); the answer's params schema is in methods.ts.
 */
/** The kinds of question a client may answer (the same names as server-question.ts). */
export type AnswerableKind = "elicitation" | "sampling";

/** The `_meta` key of a call request: the kinds of question its client answers. */
export const ANSWERS_META_KEY = "toolpool/answers";
/**
 * The `_meta` key of a call request: who answers, within the connection's session. Calls naming
 * different askers are never asked each other's questions (a bridge whose requests come from hosts
 * it cannot tell apart names each call alone); absent, every call of the session has one asker.
 */
export const ASKER_META_KEY = "toolpool/asker";
const MAX_ASKER_CHARS = 128;

export interface QuestionNotification {
  questionId: string;
  /** The id of the call request on this connection that caused it. */
  requestId: string | number;
  server: string;
  tool: string;
  kind: AnswerableKind;
  method: string;
  params: Record<string, unknown>;
}

/** The asker a request's `_meta` names, when it names one (a string of at most 128 characters). */
export function askerOf(meta: unknown): string | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const asker = (meta as Record<string, unknown>)[ASKER_META_KEY];
  return typeof asker === "string" && asker !== "" && asker.length <= MAX_ASKER_CHARS ? asker : undefined;
}

/** The kinds a request's `_meta` says its client answers; unknown names are ignored. */
export function answeredKinds(meta: unknown): Set<AnswerableKind> {
  const kinds = new Set<AnswerableKind>();
  if (typeof meta !== "object" || meta === null) return kinds;
  const named = (meta as Record<string, unknown>)[ANSWERS_META_KEY];
  if (!Array.isArray(named)) return kinds;
  for (const kind of named.slice(0, 8)) if (kind === "elicitation" || kind === "sampling") kinds.add(kind);
  return kinds;
}
