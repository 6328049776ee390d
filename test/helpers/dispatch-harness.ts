/**
 * The daemon without a socket: a real `Daemon` (its dispatcher, every method, the core), never
 * started, with in-memory peers in place of connections. Each line a peer sends goes through the
 * same `handleLine` as a socket's, and each answer comes back through JSON as on the wire, so a
 * test of what a method answers runs in milliseconds with no socket, lock or directory. Tests of
 * the wire itself (framing, bounds, back-pressure, the lifecycle) keep the socket
 * (test/helpers/daemon-harness.ts).
 */
import { builtinTools } from "../../src/builtin/list.ts";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import type { Peer, PeerLink } from "../../src/daemon/peer.ts";
import type { RequestId } from "../../src/protocol/jsonrpc.ts";
import type { MethodName, ParamsOf, ResultOf } from "../../src/protocol/method-table.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import type { Tool } from "../../src/tool/tool.ts";

type Message = Record<string, unknown>;

/**
 * One client of the in-memory daemon, with the calls of test/helpers/raw-client.ts (`send` is the
 * client's: to the daemon). Its `peer` is what the daemon sees: the Peer whose `send` delivers here.
 */
export class MemoryPeer implements Disposable {
  readonly messages: Message[] = [];
  readonly peer: Peer;
  #nextId = 1;
  #waiters: (() => void)[] = [];
  readonly #link: PeerLink;

  constructor(attach: (peer: Peer) => PeerLink) {
    const client = this;
    let closed = false;
    this.peer = {
      id: `mem-${crypto.randomUUID().slice(0, 8)}`,
      inFlight: new Map<RequestId, AbortController>(),
      sessionId: undefined,
      initialized: false,
      clientName: "",
      cronAcks: false,
      listens: new Set<RequestId>(),
      questions: new Map(),
      get closed() {
        return closed;
      },
      // What the daemon sends, as a client would read it off the wire (undefined fields gone).
      send(message: unknown) {
        if (!closed) client.#receive(JSON.parse(JSON.stringify(message)) as Message);
      },
      requestSettled() {},
      close() {
        if (closed) return;
        closed = true;
        for (const controller of this.inFlight.values()) controller.abort(new Error("the connection closed"));
        client.#link.closed();
      },
    };
    this.#link = attach(this.peer);
  }

  get closed(): boolean {
    return this.peer.closed;
  }

  sendLine(line: string): void {
    this.#link.line(line);
  }

  send(message: Message): void {
    this.sendLine(JSON.stringify(message));
  }

  /** Sends a request with a fresh numeric id and waits for the response with that id. */
  async request(method: string, params?: Message): Promise<Message> {
    const id = this.#nextId++;
    this.send({ jsonrpc: "2.0", id, method, ...(params && { params }) });
    return this.waitFor((message) => message.id === id);
  }

  /** A typed request: its result, or the error's message thrown. */
  async call<M extends MethodName>(method: M, params?: ParamsOf<M>): Promise<ResultOf<M>> {
    const response = await this.request(method, params as Message | undefined);
    if (response.error) throw new Error((response.error as { message: string }).message);
    return response.result as ResultOf<M>;
  }

  /** Waits until a received message satisfies the predicate, and returns it. */
  async waitFor(predicate: (message: Message) => boolean, timeoutMs = 10_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out waiting; received: ${JSON.stringify(this.messages).slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.peer.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  #receive(message: Message): void {
    this.messages.push(message);
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

export interface DispatchHarness extends AsyncDisposable {
  daemon: Daemon;
  /** A new in-memory client (a connection of its own). */
  peer(): MemoryPeer;
}

/** `usageDatabasePath`: the usage history file (default in memory). */
export function dispatchHarness(options: { builtins?: readonly Tool[]; config?: Record<string, unknown>; usageDatabasePath?: string } = {}): DispatchHarness {
  const daemon = new Daemon({
    socketPath: "/nonexistent/in-memory.sock",
    config: parseConfig(options.config ?? {}, "test"),
    configSource: { path: null, explicit: false },
    builtins: options.builtins ?? builtinTools(),
    logger: silentLogger,
    usageDatabasePath: options.usageDatabasePath ?? ":memory:",
    drainTimeoutMs: 200,
  });
  return {
    daemon,
    peer: () => new MemoryPeer((peer) => daemon.attach(peer)),
    // Never started, so there is no socket to close: stop only ends what the core opened.
    [Symbol.asyncDispose]: () => daemon.stop("test finished"),
  };
}
