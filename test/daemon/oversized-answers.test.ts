/** A message over the line a client reads is never written: an answer becomes an error naming its size, a notification is dropped. */
import { describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { Connection } from "../../src/daemon/connection.ts";
import { MAX_LINE_BYTES } from "../../src/protocol/limits.ts";
import { createLogger } from "../../src/runtime/logger.ts";

class WrittenSocket extends EventEmitter {
  readonly lines: string[] = [];
  writableLength = 0;
  write(text: string): boolean {
    this.lines.push(text);
    return true;
  }
  pause(): void {}
  resume(): void {}
  end(): void {}
  destroy(): void {}
}

describe("Connection.send over the client's line limit", () => {
  test("a 9 MB answer is an error with its size, a notification of 2-byte characters over the limit in bytes is dropped, the connection goes on", () => {
    const socket = new WrittenSocket();
    const logged: string[] = [];
    const connection = new Connection(socket as unknown as Socket, { line: () => {}, closed: () => {} }, createLogger("warn", (line) => logged.push(line)));
    const big = { jsonrpc: "2.0", id: 7, result: { text: "x".repeat(9_000_000) } };
    const bytes = Buffer.byteLength(JSON.stringify(big));
    connection.send(big);
    // Fewer characters than the limit, more bytes: what a client counts is bytes.
    connection.send({ jsonrpc: "2.0", method: "notifications/message", params: { text: "é".repeat(MAX_LINE_BYTES / 2 + 1) } });
    connection.send({ jsonrpc: "2.0", id: 8, result: { ok: true } });
    expect({ lines: socket.lines.map((line) => JSON.parse(line) as unknown), endsInNewline: socket.lines.every((line) => line.endsWith("\n")), warned: logged.length, closed: connection.closed }).toEqual({
      lines: [
        { jsonrpc: "2.0", id: 7, error: { code: -32603, message: `The answer was ${bytes} bytes, over the ${MAX_LINE_BYTES}-byte line limit clients read, so it was not sent` } },
        { jsonrpc: "2.0", id: 8, result: { ok: true } },
      ],
      endsInNewline: true,
      warned: 2,
      closed: false,
    });
  });
});
