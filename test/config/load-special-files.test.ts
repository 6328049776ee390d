/** The config (and the flags features file) are read on one non-blocking descriptor: never a FIFO, never unbounded. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig, MAX_CONFIG_BYTES } from "../../src/config/load.ts";
import { readRegularFileSync } from "../../src/runtime/bounded-file.ts";

function tempDir(): string {
  return mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "config-"));
}

function mkfifo(path: string): void {
  const made = Bun.spawnSync(["mkfifo", path]);
  if (made.exitCode !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
}

describe("readRegularFileSync", () => {
  test("a FIFO is refused at once instead of blocking on open (no writer ever comes)", () => {
    const fifo = join(tempDir(), "pipe");
    mkfifo(fifo);
    expect(readRegularFileSync(fifo, 1024)).toEqual({ ok: false, reason: "not a regular file", missing: false });
  });

  test("reads a regular file, refuses one over the limit and a directory, and reports a missing one", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "small"), "hello");
    writeFileSync(join(dir, "big"), "");
    truncateSync(join(dir, "big"), 2048);
    expect(readRegularFileSync(join(dir, "small"), 1024)).toEqual({ ok: true, text: "hello" });
    expect(readRegularFileSync(join(dir, "big"), 1024)).toEqual({ ok: false, reason: "file is 2048 bytes; the limit is 1024", missing: false });
    expect(readRegularFileSync(dir, 1024)).toEqual({ ok: false, reason: "not a regular file", missing: false });
    expect(readRegularFileSync(join(dir, "absent"), 1024)).toEqual({ ok: false, reason: "file not found", missing: true });
  });
});

describe("loadConfig", () => {
  test("a config path that is a FIFO is a clear ConfigError, not a hang", async () => {
    const fifo = join(tempDir(), "config.json");
    mkfifo(fifo);
    const loading = loadConfig({ path: fifo, explicit: true });
    await expect(loading).rejects.toThrow(new ConfigError(`cannot read config ${fifo}: not a regular file`));
  });

  test("a config over the size limit is refused with the limit named", async () => {
    const path = join(tempDir(), "config.json");
    writeFileSync(path, "");
    truncateSync(path, MAX_CONFIG_BYTES + 1);
    await expect(loadConfig({ path, explicit: true })).rejects.toThrow(
      `cannot read config ${path}: file is ${MAX_CONFIG_BYTES + 1} bytes; the limit is ${MAX_CONFIG_BYTES}`,
    );
  });

  test("a missing default config still means defaults; a missing named one is an error", async () => {
    const path = join(tempDir(), "config.json");
    expect((await loadConfig({ path, explicit: false })).path).toBeNull();
    await expect(loadConfig({ path, explicit: true })).rejects.toThrow(`cannot read config ${path}: file not found`);
  });
});
