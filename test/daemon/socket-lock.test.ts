import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
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

  test("the lock holds our pid and no draft or takeover file is left behind", () => {
    const socketPath = join(tempSocketDir(), "s.sock");
    const lock = acquireSocketLock(socketPath, dead);
    expect(readFileSync(lock.path, "utf8")).toBe(`${process.pid}\n`);
    expect(readdirSync(dirname(socketPath))).toEqual(["s.sock.lock"]);
    lock.release();
    expect(readdirSync(dirname(socketPath))).toEqual([]);
  });

  test("two daemons taking over the same stale lock: the slower one gives up and leaves the winner's lock alone", () => {
    const socketPath = join(tempSocketDir(), "s.sock");
    const lockPath = `${socketPath}.lock`;
    writeFileSync(lockPath, "4242\n");
    const winner = 5151;
    // While this daemon is judging pid 4242 dead, another daemon removes the stale lock and takes its place.
    const racingCheck = (pid: number) => {
      if (pid === 4242) writeFileSync(lockPath, `${winner}\n`);
      return pid === winner;
    };
    expect(() => acquireSocketLock(socketPath, racingCheck)).toThrow(AlreadyRunningError);
    expect(readFileSync(lockPath, "utf8")).toBe(`${winner}\n`);
    expect(readdirSync(dirname(socketPath))).toEqual(["s.sock.lock"]);
  });

  test("while another starter is taking over the stale lock, we give up and touch nothing", () => {
    const socketPath = join(tempSocketDir(), "s.sock");
    const lockPath = `${socketPath}.lock`;
    writeFileSync(lockPath, "4242\n");
    writeFileSync(`${lockPath}.takeover`, "5151\n");
    expect(() => acquireSocketLock(socketPath, (pid) => pid === 5151)).toThrow("already starting");
    expect(readFileSync(lockPath, "utf8")).toBe("4242\n");
    expect(readFileSync(`${lockPath}.takeover`, "utf8")).toBe("5151\n");
  });

  test("a takeover left behind by a starter that died mid-way is cleared after a while", () => {
    const socketPath = join(tempSocketDir(), "s.sock");
    const lockPath = `${socketPath}.lock`;
    writeFileSync(lockPath, "4242\n");
    writeFileSync(`${lockPath}.takeover`, "5151\n");
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${lockPath}.takeover`, old, old);
    const lock = acquireSocketLock(socketPath, dead);
    expect(readFileSync(lock.path, "utf8")).toBe(`${process.pid}\n`);
    expect(readdirSync(dirname(socketPath))).toEqual(["s.sock.lock"]);
    lock.release();
  });

  test("a lock we cannot even write beside still reports the live daemon that holds it", () => {
    const socketPath = join(tempSocketDir(), "s.sock");
    writeFileSync(`${socketPath}.lock`, "4242\n");
    writeFileSync(socketPath, "");
    // Our draft cannot be written (a directory sits in its place), as in a directory we may not write to.
    mkdirSync(`${socketPath}.lock.${process.pid}.draft`);
    expect(() => acquireSocketLock(socketPath, alive)).toThrow("already running on");
    expect(() => acquireSocketLock(socketPath, dead)).toThrow("EISDIR");
  });
});
