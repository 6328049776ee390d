import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultFlagValues } from "../../src/flags/flag-definitions.ts";
import { type GrowthBookFlagsOptions, GrowthBookFlags } from "../../src/flags/growthbook-flags.ts";
import { FLAGS_CACHE_FILE, PayloadCache } from "../../src/flags/payload-cache.ts";
import { parsePayload } from "../../src/flags/payload.ts";
import { PayloadServer, nextChange, payloadOf, recordingLogger, refusedApiHost, tempDir, waitFor } from "./helpers.ts";

const CLIENT_KEY = "sdk-test-key";

function remoteFlags(apiHost: string, options: Partial<GrowthBookFlagsOptions> = {}) {
  const logger = recordingLogger();
  const stateDir = options.stateDir ?? tempDir();
  const flags = new GrowthBookFlags({
    features: ["PREFETCH"],
    apiHost,
    clientKey: CLIENT_KEY,
    pollIntervalMs: 60_000,
    requestTimeoutMs: 2_000,
    stateDir,
    logger,
    ...options,
  });
  return { flags, logger, stateDir };
}

/** Seeds the disk cache as an earlier run against `apiHost` would have left it. */
function seedCache(stateDir: string, apiHost: string, values: Record<string, unknown>, fetchedAt: number): void {
  const parsed = parsePayload(payloadOf(values));
  if (!parsed.ok) throw new Error(parsed.reason);
  new PayloadCache(stateDir, `${apiHost}\n${CLIENT_KEY}`).write(parsed.payload, fetchedAt);
}

describe("GrowthBook API host", () => {
  test("construction does not wait for the network; the payload applies when it arrives, and is cached", async () => {
    await using server = new PayloadServer(payloadOf({ disabled_tools: ["Bash"] }));
    server.mode = "hang";
    const { flags, stateDir } = remoteFlags(server.apiHost);
    await using _ = flags;
    expect(flags.values()).toEqual(defaultFlagValues());
    await waitFor(() => server.requests === 1, "the first fetch to start");
    expect(flags.describe().payloads[0]?.state).toBe("waiting");

    const changed = nextChange(flags);
    server.release();
    await changed;
    expect(flags.get("disabled_tools")).toEqual(["Bash"]);
    expect(flags.describe().flags.find((flag) => flag.key === "disabled_tools")?.source).toBe("remote");
    expect(JSON.parse(readFileSync(join(stateDir, FLAGS_CACHE_FILE), "utf8")).payload).toEqual(payloadOf({ disabled_tools: ["Bash"] }));
  });

  test("targeting rules from the host are evaluated per session (by model)", async () => {
    await using server = new PayloadServer({
      features: { tool_search_unsupported_models: { defaultValue: ["haiku"], rules: [{ condition: { model: { $regex: "sonnet-3" } }, force: ["haiku", "sonnet-3"] }] } },
    });
    const { flags } = remoteFlags(server.apiHost);
    await using _ = flags;
    await flags.settled();
    expect(flags.get("tool_search_unsupported_models", { model: "claude-sonnet-3-5" })).toEqual(["haiku", "sonnet-3"]);
    expect(flags.get("tool_search_unsupported_models", { model: "claude-sonnet-4" })).toEqual(["haiku"]);
  });

  test("the host wins over the file; the file fills what the host lacks or gets wrong", async () => {
    await using server = new PayloadServer(payloadOf({ prefetch_max_results: 8, disabled_tools: "Bash" }));
    const dir = tempDir();
    const file = join(dir, "features.json");
    writeFileSync(file, JSON.stringify(payloadOf({ prefetch_max_results: 2, disabled_tools: ["Edit"], deferred_tools_delta: true })));
    const { flags, logger } = remoteFlags(server.apiHost, { file, stateDir: dir });
    await using _ = flags;
    await flags.settled();
    expect(flags.values()).toEqual({ ...defaultFlagValues(), prefetch_max_results: 8, disabled_tools: ["Edit"], deferred_tools_delta: true });
    const sources = Object.fromEntries(flags.describe().flags.map((flag) => [flag.key, flag.source]));
    expect([sources.prefetch_max_results, sources.disabled_tools, sources.deferred_tools_delta]).toEqual(["remote", "file", "file"]);
    expect(logger.find("warn", "wrong type").map((entry) => entry.fields)).toEqual([
      { flag: "disabled_tools", source: "remote", reason: "expected an array of strings, got string" },
    ]);
  });

  test("a poll that brings a change notifies; a failed or invalid poll keeps the last good payload", async () => {
    await using server = new PayloadServer(payloadOf({ disabled_tools: ["Bash"] }));
    const { flags, logger } = remoteFlags(server.apiHost, { pollIntervalMs: 20 });
    await using _ = flags;
    await flags.settled();
    const changed = nextChange(flags);
    server.payload = payloadOf({ disabled_tools: ["Bash", "Grep"] });
    await changed;
    expect(flags.get("disabled_tools")).toEqual(["Bash", "Grep"]);

    server.mode = "fail";
    await waitFor(() => flags.describe().payloads[0]?.lastError === "fetch failed: HTTP 500", "the failing poll");
    server.mode = "serve";
    server.payload = "{ truncated";
    await waitFor(() => String(flags.describe().payloads[0]?.lastError).startsWith("not valid JSON"), "the invalid poll");
    expect(flags.get("disabled_tools")).toEqual(["Bash", "Grep"]);
    expect(flags.describe().payloads[0]?.state).toBe("loaded");
    const requestsSoFar = server.requests;
    await waitFor(() => server.requests >= requestsSoFar + 5, "more polls of the same problem");
    expect(logger.find("warn", "flags API host").length).toBe(2);
  });

  test("host unreachable + a cached payload → cached values, reported as `cached` with the cache's age", async () => {
    const apiHost = await refusedApiHost();
    const stateDir = tempDir();
    seedCache(stateDir, apiHost, { search_default_max_results: 12, prefetch_enabled: false }, 1_000);
    const { flags } = remoteFlags(apiHost, { stateDir, now: () => 61_000 });
    await using _ = flags;
    expect(flags.get("search_default_max_results")).toBe(12);
    await flags.settled();
    expect(flags.values()).toEqual({ ...defaultFlagValues(), search_default_max_results: 12, prefetch_enabled: false });
    const report = flags.describe();
    expect(report.flags.filter((flag) => flag.source !== "default").map(({ key, source, ageMs }) => ({ key, source, ageMs }))).toEqual([
      { key: "prefetch_enabled", source: "cached", ageMs: 60_000 },
      { key: "search_default_max_results", source: "cached", ageMs: 60_000 },
    ]);
    expect(report.payloads).toMatchObject([{ source: "remote", state: "cached", ageMs: 60_000, features: 2 }]);
    expect(String(report.payloads[0]?.lastError)).toStartWith("fetch failed");
  });

  test("host unreachable and no cache → embedded defaults, every source `default`", async () => {
    const apiHost = await refusedApiHost();
    const { flags, stateDir } = remoteFlags(apiHost);
    await using _ = flags;
    await flags.settled();
    expect(flags.values()).toEqual(defaultFlagValues());
    const report = flags.describe();
    expect(report.flags.map((flag) => flag.source)).toEqual(report.flags.map(() => "default"));
    expect(report.payloads).toMatchObject([{ source: "remote", state: "failed", ageMs: null, features: 0 }]);
    expect(existsSync(join(stateDir, FLAGS_CACHE_FILE))).toBe(false);
  });

  test("a host that never answers: the first load times out and settles", async () => {
    await using server = new PayloadServer(payloadOf({}));
    server.mode = "hang";
    const { flags } = remoteFlags(server.apiHost, { requestTimeoutMs: 100 });
    await using _ = flags;
    await flags.settled();
    expect(flags.describe().payloads[0]?.lastError).toBe("fetch failed: no answer within 100 ms");
    expect(flags.values()).toEqual(defaultFlagValues());
  });

  test("a cache left by another host or client key is not served", async () => {
    const apiHost = await refusedApiHost();
    const stateDir = tempDir();
    seedCache(stateDir, "http://127.0.0.1:1", { disabled_tools: ["Bash"] }, 1_000);
    const { flags } = remoteFlags(apiHost, { stateDir });
    await using _ = flags;
    expect(flags.get("disabled_tools")).toEqual([]);
  });

  test("a fetch that succeeds after a cached start turns `cached` into `remote` without a change event when equal", async () => {
    await using server = new PayloadServer(payloadOf({ search_default_max_results: 12 }));
    const stateDir = tempDir();
    seedCache(stateDir, server.apiHost, { search_default_max_results: 12 }, 1_000);
    const { flags } = remoteFlags(server.apiHost, { stateDir });
    await using _ = flags;
    let changes = 0;
    flags.onChange(() => changes++);
    expect(flags.describe().flags.find((flag) => flag.key === "search_default_max_results")?.source).toBe("cached");
    await flags.settled();
    expect(flags.describe().flags.find((flag) => flag.key === "search_default_max_results")?.source).toBe("remote");
    expect(changes).toBe(0);
  });

  test("only one of apiHost and clientKey is a logged misconfiguration, not a fetch", async () => {
    const logger = recordingLogger();
    await using flags = new GrowthBookFlags({ features: [], apiHost: "http://127.0.0.1:1", logger, stateDir: tempDir() });
    expect(flags.describe().payloads).toEqual([]);
    expect(logger.find("warn", "needed together").length).toBe(1);
  });
});
