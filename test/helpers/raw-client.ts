/**
 * A deliberately plain NDJSON client for tests: not the project's client library, so the tests
 * see exactly what crosses the socket.
 */
import { connect, type Socket } from "node:net";

export class RawClient {
  readonly messages: Record<string, unknown>[] = [];
  #buffer = "";
  #waiters: (() => void)[] = [];
  #closed = false;
  #nextId = 1;

  private constructor(readonly socket: Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.#buffer += chunk;
      let newline = this.#buffer.indexOf("\n");
      while (newline !== -1) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        if (line) this.messages.push(JSON.parse(line) as Record<string, unknown>);
        newline = this.#buffer.indexOf("\n");
      }
      this.#wake();
    });
    socket.on("close", () => {
      this.#closed = true;
      this.#wake();
    });
    socket.on("error", () => {});
  }

  static open(path: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once("connect", () => resolve(new RawClient(socket)));
      socket.once("error", reject);
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  sendLine(line: string): void {
    this.socket.write(line.endsWith("\n") ? line : `${line}\n`);
  }

  send(message: Record<string, unknown>): void {
    this.sendLine(JSON.stringify(message));
  }

  /** Sends a request with a fresh numeric id and waits for the response with that id. */
  async request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    this.send({ jsonrpc: "2.0", id, method, ...(params && { params }) });
    return this.waitFor((message) => message.id === id);
  }

  /** Waits until a received message satisfies the predicate, and returns it. */
  async waitFor(predicate: (message: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      if (this.#closed) throw new Error("connection closed while waiting");
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

  async waitClosed(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#closed) {
      if (Date.now() > deadline) throw new Error("connection did not close");
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  close(): void {
    this.socket.end();
  }

  [Symbol.dispose](): void {
    this.socket.destroy();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
