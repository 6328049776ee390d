/** A minimal newline-delimited JSON-RPC client of the daemon's socket, for the benches. */
import { connect, type Socket } from "node:net";

export class NdjsonClient {
  #buffer = "";
  #waiting = new Map<number, (message: Record<string, unknown>) => void>();
  #nextId = 1;
  private constructor(private readonly socket: Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.#buffer += chunk;
      for (let newline = this.#buffer.indexOf("\n"); newline !== -1; newline = this.#buffer.indexOf("\n")) {
        const message = JSON.parse(this.#buffer.slice(0, newline)) as Record<string, unknown>;
        this.#buffer = this.#buffer.slice(newline + 1);
        this.#waiting.get(message.id as number)?.(message);
      }
    });
    // A daemon that stops mid-run closes the socket: the bench reads what it has, it does not crash.
    socket.on("error", () => {});
  }

  static open(path: string): Promise<NdjsonClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once("connect", () => resolve(new NdjsonClient(socket)));
      socket.once("error", reject);
    });
  }

  request(method: string, params?: unknown): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.socket.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params !== undefined && { params }) })}\n`);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}
