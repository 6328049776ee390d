/**
 * A 2026-07-28 host's side of a server's questions (Multi Round-Trip Requests, as a server): when
 * a call the host made through the stateless face is asked something, the host gets
 * `resultType: "input_required"` with the questions (`inputRequests`, keyed by their question ids)
 * and an opaque `requestState`; its retry of the call carries the answers (`inputResponses`) and that
 * state, and gets the result — or the next questions. Meanwhile the daemon call keeps running here,
 * waiting for the answers. The state is a random token naming one waiting call of this daemon link
 * (each stateless caller has its own, so another caller's state is unknown here); a host that does
 * not come back within RETRY_WAIT_MS loses it (the call is cancelled).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AnswerableKind, QuestionAnswerer, QuestionNotification } from "../client/client.ts";

export type RoundCall = (name: string, input: Record<string, unknown>, options: { signal: AbortSignal; answers: QuestionAnswerer }) => Promise<CallToolResult>;

export type RoundOutcome =
  | { kind: "complete"; result: CallToolResult }
  | { kind: "input_required"; inputRequests: Record<string, { method: string; params: Record<string, unknown> }>; requestState: string }
  | { kind: "refused"; message: string };

export interface RoundRequest {
  name: string;
  input: Record<string, unknown>;
  kinds: readonly AnswerableKind[];
  requestState?: unknown;
  inputResponses?: unknown;
  /** The host's request: cancelling it cancels the call. */
  signal?: AbortSignal;
  /**
   * The call is its own asker: a question that cannot say which call asked is never put to it for
   * another call of this link. For hosts the transport cannot tell apart (stateless HTTP callers
   * declaring the same clientInfo), whose calls share one daemon session but not one person.
   */
  askerPerCall?: boolean;
}

interface Open {
  question: QuestionNotification;
  resolve(result: Record<string, unknown>): void;
}

interface Waiting {
  name: string;
  controller: AbortController;
  result: Promise<{ done: CallToolResult } | { failed: unknown }>;
  open: Map<string, Open>;
  wake: (() => void) | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Calls waiting for their host's answers at most, per daemon link (one per stateless caller, one per stdio pipe). */
export const MAX_WAITING_CALLS = 16;
/** How long a host may take to come back with its answers. */
export const RETRY_WAIT_MS = 10 * 60 * 1000;

export class HostRounds {
  readonly #waiting = new Map<string, Waiting>();
  /**
   * Calls that have asked their host and not ended: parked, or on a retry that may park them again.
   * The bound is taken here, when a call first asks, not when it starts: calls started together
   * all pass a count made at their start.
   */
  readonly #asking = new Set<Waiting>();

  constructor(
    private readonly call: RoundCall,
    private readonly retryWaitMs = RETRY_WAIT_MS,
  ) {}

  get waiting(): number {
    return this.#waiting.size;
  }

  async run(request: RoundRequest): Promise<RoundOutcome> {
    let waiting: Waiting;
    if (request.requestState !== undefined) {
      const found = typeof request.requestState === "string" ? this.#waiting.get(request.requestState) : undefined;
      if (!found || found.name !== request.name) {
        return { kind: "refused", message: `Invalid params: requestState names no call of ${JSON.stringify(request.name.slice(0, 100))} waiting for answers here (it expired after ${waitText(this.retryWaitMs)}, was answered already, or belongs to another call)` };
      }
      this.#waiting.delete(request.requestState as string);
      clearTimeout(found.timer);
      waiting = found;
      const responses = isObject(request.inputResponses) ? request.inputResponses : {};
      for (const [id, open] of waiting.open) {
        const answer = responses[id];
        if (!isObject(answer)) continue;
        waiting.open.delete(id);
        open.resolve(answer);
      }
    } else {
      if (this.#asking.size >= MAX_WAITING_CALLS) return { kind: "refused", message: tooMany() };
      waiting = this.#start(request);
    }
    const onHostAbort = () => waiting.controller.abort(new Error("the host cancelled the call"));
    request.signal?.addEventListener("abort", onHostAbort, { once: true });
    try {
      const next = await Promise.race([waiting.result, this.#asked(waiting)]);
      if (next) this.#asking.delete(waiting);
      if (next && "done" in next) return { kind: "complete", result: next.done };
      if (next && "failed" in next) throw next.failed;
      if (!this.#asking.has(waiting)) {
        if (this.#asking.size >= MAX_WAITING_CALLS) {
          waiting.controller.abort(new Error(tooMany()));
          return { kind: "refused", message: `${tooMany()} (this call asked a question and was cancelled)` };
        }
        this.#asking.add(waiting);
      }
      return this.#park(waiting);
    } finally {
      request.signal?.removeEventListener("abort", onHostAbort);
    }
  }

  /** Cancels every waiting call (the bridge is closing). */
  close(): void {
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.controller.abort(new Error("the bridge closed"));
    }
    this.#waiting.clear();
    this.#asking.clear();
  }

  #start(request: RoundRequest): Waiting {
    const controller = new AbortController();
    const waiting: Waiting = { name: request.name, controller, result: Promise.resolve({ failed: undefined }), open: new Map(), wake: undefined, timer: undefined };
    const answers: QuestionAnswerer = {
      kinds: request.kinds,
      ...(request.askerPerCall && { asker: crypto.randomUUID() }),
      answer: (question, signal) =>
        new Promise((resolve, reject) => {
          waiting.open.set(question.questionId, { question, resolve });
          signal.addEventListener("abort", () => {
            waiting.open.delete(question.questionId);
            reject(signal.reason instanceof Error ? signal.reason : new Error("withdrawn"));
          }, { once: true });
          waiting.wake?.();
        }),
    };
    waiting.result = this.call(request.name, request.input, { signal: controller.signal, answers }).then(
      (done) => ({ done }),
      (failed: unknown) => ({ failed }),
    );
    return waiting;
  }

  /** Resolves once the call has a question open for the host. */
  #asked(waiting: Waiting): Promise<undefined> {
    if (waiting.open.size > 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      waiting.wake = () => {
        waiting.wake = undefined;
        resolve(undefined);
      };
    });
  }

  /** The call waits for the host's retry under a fresh state token. */
  #park(waiting: Waiting): RoundOutcome {
    const requestState = crypto.randomUUID();
    this.#waiting.set(requestState, waiting);
    waiting.timer = setTimeout(() => {
      this.#waiting.delete(requestState);
      this.#asking.delete(waiting);
      waiting.controller.abort(new Error(`the host did not answer within ${waitText(this.retryWaitMs)}`));
    }, this.retryWaitMs);
    (waiting.timer as { unref?: () => void }).unref?.();
    const inputRequests: Record<string, { method: string; params: Record<string, unknown> }> = {};
    for (const [id, open] of waiting.open) inputRequests[id] = { method: open.question.method, params: open.question.params };
    return { kind: "input_required", inputRequests, requestState };
  }
}

function tooMany(): string {
  return `Too many of this caller's calls are waiting for its answers (limit ${MAX_WAITING_CALLS}); answer or abandon one first`;
}

function waitText(ms: number): string {
  return ms < 10_000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
