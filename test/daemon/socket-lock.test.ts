import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { acquireSocketLock, AlreadyRunningError } from "../../src/daemon/socket-lock.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";

const alive = () => true;
const dead = () => false;

describe("socket lock", () => {
  test("a lock held by a live process with its socket present is never taken", () => {
    const socketPath = join(tempSocketDir(), "s.sock");
    writeFileSync(`${socketPath}.lock`, "4242\n");
    writeFileSync(socketPath, "");
    expect(() => acquireSocketLock(socketPath, alive)).toThrow(AlreadyRunningError);
  });

  test("a fresh lock of a live process without a socket yet (a daemon starting) is not taken", () => {
    const socketPath = join(tempSocketDir(), "s.sock");
    writeFileSync(`${socketPath}.lock`, "4242\n");
    expect(() => acquireSocketLock(socketPath, alive)).toThrow(AlreadyRunningError);
  });

  test("a dead owner's lock is taken over", () => {
    const socketPath = join(tempSocketDir(), "s.sock");
    writeFileSync(`${socketPath}.lock`, "4242\n");
    const lock = acquireSocketLock(socketPath, dead);
    expect(readFileSync(lock.path, "utf8").trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  test("an old lock with no socket beside it belongs to a reused pid and is taken over", () => {
    const socketPath = join(tempSocketDir(), "s.sock");
    writeFileSync(`${socketPath}.lock`, "4242\n");
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${socketPath}.lock`, old, old);
    const lock = acquireSocketLock(socketPath, alive);
    expect(readFileSync(lock.path, "utf8").trim()).toBe(String(process.pid));
    lock.release();
  });
});
