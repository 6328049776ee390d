/** The listener's own edges, in process: ownership by inode, and backing off when descriptors run out. */
import { describe, expect, test } from "bun:test";
import { existsSync, renameSync, writeFileSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { connectionCeiling, SocketListener } from "../../src/daemon/socket-listener.ts";
import { createLogger, silentLogger } from "../../src/runtime/logger.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { waitFor as waitUntil } from "../helpers/wait.ts";

function tryConnect(path: string): Promise<"connected" | string> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe("SocketListener", () => {
  test("out of descriptors: stops accepting (the file stays), and listens again once one can be opened", async () => {
    const socketPath = join(tempSocketDir(), "l.sock");
    let exhausted = false;
    const logged: string[] = [];
    const listener = new SocketListener(socketPath, (socket) => socket.destroy(), createLogger("info", (line) => logged.push(line)), {
      maxConnections: 100,
      probeIntervalMs: 20,
      probeDescriptor: () => {
        if (exhausted) throw Object.assign(new Error("too many open files"), { code: "EMFILE" });
      },
    });
    await listener.listen();
    try {
      expect(await tryConnect(socketPath)).toBe("connected");
      exhausted = true;
      await waitUntil(() => !listener.listening, "the listener to back off");
      expect(existsSync(socketPath)).toBe(true);
      expect(await tryConnect(socketPath)).toBe("ECONNREFUSED");
      exhausted = false;
      await waitUntil(() => listener.listening, "the listener to come back");
      expect(await tryConnect(socketPath)).toBe("connected");
      expect(listener.ownership()).toBe("ours");
      expect(logged.map((line) => JSON.parse(line).message)).toEqual([
        "out of file descriptors: not accepting connections until some are free",
        "file descriptors are free again: accepting connections",
      ]);
    } finally {
      await listener.close();
    }
    expect(existsSync(socketPath)).toBe(false);
  });

  test("close removes the socket only while it is the one it created", async () => {
    const dir = tempSocketDir();
    const socketPath = join(dir, "o.sock");
    const listener = new SocketListener(socketPath, (socket) => socket.destroy(), silentLogger, { maxConnections: 10 });
    await listener.listen();
    renameSync(socketPath, join(dir, "moved.sock"));
    writeFileSync(socketPath, "someone else's");
    expect(listener.ownership()).toBe("replaced");
    await listener.close();
    expect(readFileSync(socketPath, "utf8")).toBe("someone else's");
  });

  test("the connection ceiling keeps a reserve of descriptors", () => {
    expect([connectionCeiling(64), connectionCeiling(1024), connectionCeiling(20_000), connectionCeiling(undefined), connectionCeiling(10)]).toEqual([32, 922, 18_000, 922, 8]);
  });
});
