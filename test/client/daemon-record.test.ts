import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claimDaemonRecord, readDaemonRecord, writeDaemonRecord } from "../../src/client/daemon-record.ts";

function home(): NodeJS.ProcessEnv {
  return { HOME: mkdtempSync(join(tmpdir(), "record-home-")) };
}

async function listening(path: string): Promise<Server & Disposable> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return Object.assign(server, { [Symbol.dispose]: () => void server.close() });
}

describe("the daemon record clients without XDG_RUNTIME_DIR follow", () => {
  test("a second daemon on another socket leaves the record of the one still running", async () => {
    const env = home();
    const dir = mkdtempSync(join(tmpdir(), "record-sock-"));
    using _first = await listening(join(dir, "first.sock"));
    // This test process stands for the first daemon: alive, listening on the socket it recorded.
    writeDaemonRecord({ socket: join(dir, "first.sock"), pid: process.pid, config: null, startedAt: "t0" }, env);
    const keeper = claimDaemonRecord({ socket: join(dir, "second.sock"), pid: process.pid + 1_000_000, config: "/x.json", startedAt: "t1" }, env);
    expect(keeper?.socket).toBe(join(dir, "first.sock"));
    expect(readDaemonRecord(env)?.socket).toBe(join(dir, "first.sock"));
  });

  test("a record of a daemon that is gone (dead pid) is taken over", () => {
    const env = home();
    writeDaemonRecord({ socket: "/nowhere/old.sock", pid: 2 ** 22 + 7, config: null, startedAt: "t0" }, env);
    expect(claimDaemonRecord({ socket: "/run/new.sock", pid: process.pid, config: null, startedAt: "t1" }, env)).toBeUndefined();
    expect(readDaemonRecord(env)?.socket).toBe("/run/new.sock");
  });
});
