// test-plan: one tier — the socket lock and drain, the same code in every tier.
/**
 * Who owns the socket path, against the compiled binary: a daemon keeps its socket until it has
 * exited, removes only the socket it created, a `serve` started during a drain waits for it, and a
 * daemon whose socket or lock file is deleted (or replaced) notices.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, renameSync, unlinkSync, utimesSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { binaryPath, startBinaryDaemon } from "../helpers/binary.ts";
import { waitFor as waitUntil } from "../helpers/wait.ts";

async function statusPid(socketPath: string): Promise<number> {
  using client = await RawClient.open(socketPath);
  return ((await client.request("toolpool/status")).result as { pid: number }).pid;
}

describe("socket ownership (compiled binary)", () => {
  test("a serve started during an old daemon's drain waits for it; the old one never deletes the new one's socket", async () => {
    const socketPath = join(tempSocketDir(), "r.sock");
    await using old = await startBinaryDaemon(socketPath);
    // A daemon that has run a while: its lock is old (the case where a newcomer may judge a lock orphaned).
    const aged = new Date(Date.now() - 60_000);
    utimesSync(`${socketPath}.lock`, aged, aged);
    using client = await RawClient.open(socketPath);
    client.send({ jsonrpc: "2.0", id: "slow", method: "toolpool/call", params: { name: "Bash", input: { command: "sleep 1.5; echo done" } } });
    await waitUntil(() => existsSync(socketPath), "the socket");
    expect(((await client.request("toolpool/status")).result as { calls: { inFlight: number } }).calls.inFlight).toBe(1);
    old.child.kill("SIGTERM");
    await waitUntil(() => old.stderr().includes('"stopping"'), "the old daemon to start stopping");
    // During the drain the socket is still there and still answers (new work is refused, ping is not).
    expect(existsSync(socketPath)).toBe(true);
    const next = Bun.spawn([binaryPath(), "serve", "--socket", socketPath], { env: process.env, stdout: "pipe", stderr: "pipe" });
    let nextStderr = "";
    void (async () => {
      for await (const chunk of next.stderr) nextStderr += new TextDecoder().decode(chunk);
    })();
    try {
      await waitUntil(() => nextStderr.includes('"waiting for the previous daemon to finish stopping"'), "the new daemon to wait");
      const answer = await client.waitFor((message) => message.id === "slow");
      expect((answer.result as { content: { text: string }[] }).content[0]?.text).toContain("done");
      expect(await old.child.exited).toBe(0);
      await waitUntil(() => nextStderr.includes('"listening"'), "the new daemon to listen");
      expect(existsSync(socketPath)).toBe(true);
      expect(await statusPid(socketPath)).toBe(next.pid);
      expect(readFileSync(`${socketPath}.lock`, "utf8").trim()).toBe(String(next.pid));
    } finally {
      next.kill("SIGKILL");
      await next.exited;
    }
  }, 30_000);

  test("a deleted socket file is listened on again, and a deleted lock file is written again", async () => {
    const socketPath = join(tempSocketDir(), "d.sock");
    await using daemon = await startBinaryDaemon(socketPath);
    unlinkSync(socketPath);
    await waitUntil(() => existsSync(socketPath), "the socket to come back");
    expect(await statusPid(socketPath)).toBe(daemon.child.pid);
    // The log line is written after the file, and reaches us through a pipe: wait for it too.
    await waitUntil(() => daemon.stderr().includes('"the socket file was deleted; listening on a new one"'), "the socket log line");
    unlinkSync(`${socketPath}.lock`);
    await waitUntil(() => existsSync(`${socketPath}.lock`), "the lock to come back");
    expect(readFileSync(`${socketPath}.lock`, "utf8").trim()).toBe(String(daemon.child.pid));
    await waitUntil(() => daemon.stderr().includes('"the lock file was deleted; created it again"'), "the lock log line");
    // A second daemon is still kept out.
    const second = Bun.spawn([binaryPath(), "serve", "--socket", socketPath], { env: process.env, stdout: "pipe", stderr: "pipe" });
    expect(await second.exited).toBe(4);
  }, 30_000);

  test("a daemon whose socket path now holds someone else's socket stops, and leaves that socket alone", async () => {
    const dir = tempSocketDir();
    const socketPath = join(dir, "o.sock");
    await using daemon = await startBinaryDaemon(socketPath);
    const other = createServer((socket) => socket.end("other\n"));
    await new Promise<void>((resolve) => other.listen(join(dir, "other.sock"), () => resolve()));
    try {
      renameSync(join(dir, "other.sock"), socketPath);
      expect(await daemon.child.exited).toBe(0);
      await waitUntil(() => daemon.stderr().includes('"the socket path now holds another socket; stopping"'), "the log line");
      expect(existsSync(socketPath)).toBe(true);
      const reply = await new Promise<string>((resolve) => {
        const socket = require("node:net").connect(socketPath) as import("node:net").Socket;
        socket.setEncoding("utf8");
        socket.on("data", (chunk: string) => resolve(chunk));
      });
      expect(reply).toBe("other\n");
    } finally {
      other.close();
    }
  }, 30_000);
});
