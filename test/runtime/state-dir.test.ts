import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CronStore } from "../../src/cron/cron-store.ts";
import { preparePrivateDatabase, stateDir } from "../../src/runtime/state-dir.ts";
import { UsageStore } from "../../src/usage/usage-store.ts";

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("the state directory is private", () => {
  test("XDG_STATE_HOME, else ~/.local/state", () => {
    expect(stateDir({ XDG_STATE_HOME: "/x/state", HOME: "/h" })).toBe("/x/state/toolpool");
    expect(stateDir({ HOME: "/h" })).toBe("/h/.local/state/toolpool");
  });

  test("a directory and files that already exist with wider modes are narrowed", () => {
    const dir = join(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "state-")), "toolpool");
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const path = join(dir, "x.sqlite");
    for (const file of [path, `${path}-wal`]) {
      writeFileSync(file, "");
      chmodSync(file, 0o644);
    }
    preparePrivateDatabase(path);
    expect([modeOf(dir), modeOf(path), modeOf(`${path}-wal`)]).toEqual([0o700, 0o600, 0o600]);
  });

  test("cron and usage databases (and their WAL files) are 0600 in a 0700 directory", () => {
    const dir = join(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "state-")), "toolpool");
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const cron = new CronStore(join(dir, "cron.sqlite"));
    const usage = new UsageStore(join(dir, "usage.sqlite"));
    try {
      expect(modeOf(dir)).toBe(0o700);
      for (const file of ["cron.sqlite", "cron.sqlite-wal", "usage.sqlite", "usage.sqlite-wal"]) expect([file, modeOf(join(dir, file))]).toEqual([file, 0o600]);
    } finally {
      cron.close();
      usage.close();
    }
  });
});
