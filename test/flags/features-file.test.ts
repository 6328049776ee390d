import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFileWatcher } from "../../src/flags/file-watcher.ts";
import { GrowthBookFlags } from "../../src/flags/growthbook-flags.ts";
import { nextChange, payloadOf, recordingLogger, tempDir, waitFor, writeAtomically } from "./helpers.ts";

/** SPEC §12 / issue 8: an edited features file applies within 2 s, without a restart. */
const APPLY_WITHIN_MS = 2_000;

function setup(initial?: unknown) {
  const dir = tempDir();
  const file = join(dir, "features.json");
  if (initial !== undefined) writeFileSync(file, typeof initial === "string" ? initial : JSON.stringify(initial));
  const logger = recordingLogger();
  let clock = 1_000_000;
  const flags = new GrowthBookFlags({ features: ["PREFETCH"], file, stateDir: dir, logger, now: () => clock });
  return { dir, file, logger, flags, advance: (ms: number) => (clock += ms) };
}

describe("features file", () => {
  test.each([
    ["rewritten in place", (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value))],
    ["replaced by rename (editor save)", writeAtomically],
  ])("a change %s applies within 2 s and notifies", async (_how, write) => {
    const { file, flags } = setup(payloadOf({ disabled_tools: ["Bash"] }));
    await using _ = flags;
    expect(flags.get("disabled_tools")).toEqual(["Bash"]);
    let notified = 0;
    flags.onChange(() => notified++);
    const started = performance.now();
    write(file, payloadOf({ disabled_tools: ["Bash", "Write"] }));
    await waitFor(() => flags.get("disabled_tools").length === 2, "the edited file to apply", APPLY_WITHIN_MS);
    expect(performance.now() - started).toBeLessThan(APPLY_WITHIN_MS);
    expect(flags.get("disabled_tools")).toEqual(["Bash", "Write"]);
    expect(notified).toBe(1);
  });

  test("a bad file is ignored with a logged reason, the last good payload kept; a fixed file applies", async () => {
    const { file, flags, logger } = setup(payloadOf({ search_default_max_results: 9 }));
    await using _ = flags;
    writeAtomically(file, "{ not json");
    await waitFor(() => flags.describe().payloads[0]?.lastError !== null, "the bad file to be noticed");
    expect(flags.get("search_default_max_results")).toBe(9);
    const [warning] = logger.find("warn", "keeping the last good payload");
    expect(String(warning?.fields.reason)).toStartWith("not valid JSON");

    writeAtomically(file, { features: { search_default_max_results: { rules: "not a list" } } });
    await waitFor(() => logger.find("warn", "keeping the last good payload").length === 2, "the second bad file to be logged");
    expect(flags.get("search_default_max_results")).toBe(9);
    expect(String(logger.find("warn", "keeping")[1]?.fields.reason)).toContain("features.search_default_max_results.rules");

    const changed = nextChange(flags);
    writeAtomically(file, payloadOf({ search_default_max_results: 11 }));
    await changed;
    expect(flags.get("search_default_max_results")).toBe(11);
    expect(flags.describe().payloads[0]?.lastError).toBeNull();
  });

  test("a deleted file keeps the last good payload", async () => {
    const { file, flags, logger } = setup(payloadOf({ deferred_tools_delta: true }));
    await using _ = flags;
    rmSync(file);
    await waitFor(() => logger.find("warn", "keeping the last good payload").length === 1, "the deletion to be noticed");
    expect(flags.get("deferred_tools_delta")).toBe(true);
    expect(flags.describe().payloads[0]).toMatchObject({ state: "loaded", lastError: "file not found" });
  });

  test("a FIFO in the file's place is refused without blocking the daemon; the last good payload stays", async () => {
    const { file, flags, logger } = setup(payloadOf({ search_default_max_results: 7 }));
    await using _ = flags;
    rmSync(file);
    expect(Bun.spawnSync(["mkfifo", file]).exitCode).toBe(0);
    // A synchronous read of a FIFO with no writer would never return, and this wait would never end.
    await waitFor(() => flags.describe().payloads[0]?.lastError === "not a regular file", "the FIFO to be refused");
    expect(flags.get("search_default_max_results")).toBe(7);
    expect(logger.find("warn", "keeping the last good payload").length).toBeGreaterThan(0);
  });

  test("a file that does not exist at start is picked up when it appears", async () => {
    const { file, flags, logger } = setup();
    await using _ = flags;
    expect(flags.describe().payloads).toEqual([
      { source: "file", location: file, state: "failed", ageMs: null, features: 0, lastError: "file not found" },
    ]);
    expect(logger.find("info", "not found; watching").length).toBe(1);
    const changed = nextChange(flags);
    writeAtomically(file, payloadOf({ deferred_tools_delta: true }));
    await changed;
    expect(flags.get("deferred_tools_delta")).toBe(true);
  });

  test("describe() gives the file's age and the source of each value", async () => {
    const { file, flags, advance } = setup(payloadOf({ prefetch_max_results: 4 }));
    await using _ = flags;
    advance(2_500);
    const report = flags.describe();
    expect(report.payloads).toEqual([{ source: "file", location: file, state: "loaded", ageMs: 2_500, features: 1, lastError: null }]);
    expect(report.flags.filter((flag) => flag.source !== "default").map(({ key, value, source, ageMs }) => ({ key, value, source, ageMs }))).toEqual([
      { key: "prefetch_max_results", value: 4, source: "file", ageMs: 2_500 },
    ]);
  });

  test("the stat poll alone sees a file whose directory did not exist when watching began", async () => {
    const dir = join(tempDir(), "later");
    const file = join(dir, "features.json");
    let seen = 0;
    const watcher = createFileWatcher({ pollIntervalMs: 20, debounceMs: 5 })(file, () => seen++);
    try {
      mkdirSync(dir);
      writeFileSync(file, "{}");
      await waitFor(() => seen > 0, "the poll to notice the new file");
    } finally {
      watcher.close();
    }
  });
});
