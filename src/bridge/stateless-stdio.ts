/**
 * The 2026-07-28 face on stdio, beside the SDK server on the same pipe: a request that names its
 * protocol version in `_meta` (or `server/discover`) is answered here; everything else goes to the
 * SDK server, which keeps `initialize` for clients of 2025 revisions. On stdio every
 * `subscriptions/listen` shares the one channel: its notifications carry the listen request's id,
 * and the host ends one with `notifications/cancelled` naming that id.
 *
 * A pipe is one host, so one caller: its stateless requests go through a daemon link of their own
 * (made on the first one), whose session runs calls as they come — requests of this revision are
 * independent, so one slow call never holds the next.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { RequestId } from "../protocol/jsonrpc.ts";
import type { DaemonBridge } from "./daemon-bridge.ts";
import {
  acknowledgement,
  answerStateless,
  asStatelessRequest,
  checkProtocolVersion,
  checkRequestMeta,
  failure,
  isStatelessMessage,
  toolsChangedOn,
  type FaceOutcome,
} from "./stateless-face.ts";

export interface StatelessStdioOptions {
  /** The host's daemon link for stateless requests, made on first use. */
  bridge: () => DaemonBridge;
  version: string;
  log: (message: string) => void;
  /** Open listen subscriptions at most on this pipe (default 16). */
  maxListeners?: number;
}

/** Call after the SDK server has connected to `transport` (it set `onmessage`, which this wraps). */
export function routeStatelessMessages(transport: Transport, options: StatelessStdioOptions): { close(): void } {
  const maxListeners = options.maxListeners ?? 16;
  const sdk = transport.onmessage;
  const listens = new Map<string, () => void>();
  const inFlight = new Map<string, AbortController>();
  const key = (id: RequestId) => `${typeof id}:${id}`;
  const send = (message: object) => void transport.send(message as JSONRPCMessage).catch(() => {});

  const answer = async (message: unknown) => {
    const parsed = asStatelessRequest(message);
    if ("kind" in parsed) return send(parsed.message);
    const refused = checkRequestMeta(parsed) ?? checkProtocolVersion(parsed);
    if (refused) return send(refused.message);
    // Ids name what a cancellation ends: a second open request under one id would replace the first
    // in these maps, and a subscription replaced there is never ended nor counted against the limit.
    if (listens.has(key(parsed.id)) || inFlight.has(key(parsed.id))) {
      return send(failure(parsed.id, 400, -32600, `Invalid request: a request with id ${JSON.stringify(parsed.id).slice(0, 100)} is already open on this pipe (a subscriptions/listen or a call); use a new id`).message);
    }
    const abort = new AbortController();
    inFlight.set(key(parsed.id), abort);
    let outcome: FaceOutcome;
    try {
      outcome = await answerStateless(parsed, {
        bridge: options.bridge(),
        version: options.version,
        signal: abort.signal,
        log: options.log,
        onProgress: (params) => send({ jsonrpc: "2.0", method: "notifications/progress", params }),
      });
    } finally {
      inFlight.delete(key(parsed.id));
    }
    if (abort.signal.aborted) return; // cancelled: no answer, as for any cancelled request
    if (outcome.kind !== "listen") return send(outcome.message);
    if (listens.size >= maxListeners) return send(failure(outcome.id, 400, -32000, `Too many open subscriptions/listen streams (limit ${maxListeners}); cancel one first`).message);
    send(acknowledgement(outcome.id, outcome.accepted));
    const id = outcome.id;
    const unsubscribe = outcome.accepted.toolsListChanged ? options.bridge().onToolsChanged(() => send(toolsChangedOn(id))) : () => {};
    listens.set(key(id), unsubscribe);
    void options.bridge().open().catch((error: Error) => options.log(`toolpool mcp: listen subscription cannot reach the daemon: ${error.message}`));
  };

  transport.onmessage = (message, extra) => {
    const candidate = message as { method?: unknown; params?: { requestId?: unknown } };
    if (candidate.method === "notifications/cancelled") {
      const requestId = candidate.params?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        const stop = listens.get(key(requestId));
        if (stop) {
          stop();
          listens.delete(key(requestId));
          return;
        }
        const running = inFlight.get(key(requestId));
        if (running) return running.abort();
      }
    }
    if (isStatelessMessage(message)) {
      answer(message).catch((error: Error) => options.log(`toolpool mcp: internal error answering a ${String(candidate.method)} request: ${error.message}`));
      return;
    }
    sdk?.(message, extra);
  };
  return {
    close() {
      for (const stop of listens.values()) stop();
      listens.clear();
      for (const running of inFlight.values()) running.abort();
    },
  };
}
