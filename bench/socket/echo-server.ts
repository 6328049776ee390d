/**
 * The physical reference for the socket benchmark: node:net on Bun, NDJSON framing, no dispatch.
 * Each line comes back as a JSON-RPC result with the same id, which is the least a server must do.
 * Usage: bun bench/socket/echo-server.ts SOCKET_PATH
 */
import { createServer } from "node:net";
import { unlinkSync } from "node:fs";

const socketPath = process.argv[2];
if (!socketPath) throw new Error("usage: echo-server.ts SOCKET_PATH");
try {
  unlinkSync(socketPath);
} catch {}

const server = createServer((socket) => {
  let pending = "";
  socket.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    let newline = pending.indexOf("\n");
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      const { id } = JSON.parse(line) as { id: unknown };
      socket.write(`${JSON.stringify({ jsonrpc: "2.0", id, result: {} })}\n`);
      newline = pending.indexOf("\n");
    }
  });
  socket.on("error", () => {});
});
server.listen(socketPath, () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
