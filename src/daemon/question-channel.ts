/**
 * Servers' questions over the socket: a call request whose `_meta["toolpool/answers"]` names the
 * kinds its client answers gets a QuestionChannel; each question goes to that connection only, as a
 * `toolpool/question` notification naming the call's request id, and waits for `toolpool/answer`
 * on the same connection. Nothing else can answer it: the id is random and looked up only among
 * the connection's own open questions. Bounded: open questions per connection, the question's and
 * the answer's size, and time — a question lives no longer than its call (the call's signal carries
 * the pipeline's deadline and the client's cancellation), and is withdrawn with a notification.
 */
import { ErrorCode, RpcError, type RequestId } from "../protocol/jsonrpc.ts";
import { Method } from "../protocol/method-names.ts";
import type { ParsedParamsOf } from "../protocol/method-table.ts";
import { answeredKinds, askerOf, type QuestionNotification } from "../protocol/question-methods.ts";
import { MAX_ANSWER_BYTES, QuestionRefused, type QuestionChannel } from "../protocol/server-question.ts";
import type { Peer } from "./peer.ts";

/** Questions open at once on one connection at most; past it a question is refused, not queued. */
export const MAX_OPEN_QUESTIONS_PER_CONNECTION = 8;

/**
 * The call's channel, or undefined when its request declared no kind of answer. Its owner is the
 * connection and the session the call names (or the connection's own), narrowed to the asker the
 * request names (`toolpool/asker`), if any: a client can only split its own calls further.
 */
export function questionChannel(connection: Peer, requestId: RequestId, meta: unknown, sessionId?: string): QuestionChannel | undefined {
  const kinds = answeredKinds(meta);
  if (kinds.size === 0) return undefined;
  const asker = askerOf(meta);
  return {
    kinds,
    owner: `${connection.id}/${sessionId ?? connection.sessionId ?? ""}${asker === undefined ? "" : `/${asker}`}`,
    ask(question, signal) {
      if (signal.aborted) return Promise.reject(reasonOf(signal));
      if (connection.closed) return Promise.reject(new QuestionRefused("the client's connection closed"));
      if (connection.questions.size >= MAX_OPEN_QUESTIONS_PER_CONNECTION) {
        return Promise.reject(new QuestionRefused(`the client already has ${MAX_OPEN_QUESTIONS_PER_CONNECTION} questions open (the limit per connection)`));
      }
      const questionId = crypto.randomUUID();
      const { promise, resolve, reject } = Promise.withResolvers<Record<string, unknown>>();
      const onAbort = () => {
        if (!connection.questions.delete(questionId)) return;
        const reason = reasonOf(signal);
        connection.send({ jsonrpc: "2.0", method: Method.QuestionWithdrawn, params: { questionId, reason: reason.message.slice(0, 200) } });
        reject(reason);
      };
      connection.questions.set(questionId, (answer) => {
        connection.questions.delete(questionId);
        signal.removeEventListener("abort", onAbort);
        if (answer.error) reject(new QuestionRefused(`the client answered with an error: ${answer.error.message}`, answer.error.code));
        else resolve(answer.result ?? {});
      });
      signal.addEventListener("abort", onAbort, { once: true });
      const params: QuestionNotification = { questionId, requestId, server: question.server, tool: question.tool, kind: question.kind, method: question.method, params: question.params };
      connection.send({ jsonrpc: "2.0", method: Method.Question, params });
      return promise;
    },
  };
}

/** `toolpool/answer`: settles one of this connection's own open questions. */
export function answerQuestion(params: ParsedParamsOf<typeof Method.Answer>, context: { connection: Peer }): { answered: boolean } {
  const settle = context.connection.questions.get(params.questionId);
  if (!settle) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: no open question ${JSON.stringify(params.questionId)} on this connection (answered already, withdrawn, or never asked here)`);
  }
  const size = JSON.stringify(params.result ?? params.error).length;
  // Left open: the client may still send an answer that fits.
  if (size > MAX_ANSWER_BYTES) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: the answer is ${size} bytes, over the ${MAX_ANSWER_BYTES}-byte limit`);
  settle(params);
  return { answered: true };
}

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("the call ended");
}
