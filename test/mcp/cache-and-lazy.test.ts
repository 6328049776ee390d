/** The catalog cache at start-up, the `changed` flag, lazy servers, disabled servers and reloads. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resultText } from "../../src/tool/result.ts";
import { fixtureSpec, isAlive, tempDir, testPool, toolContext, waitFor } from "./helpers.ts";

// Real server processes: generous on a loaded machine; each test waits on conditions, not on time.
setDefaultTimeout(30_000);

const spawnCount = (pidFile: string) => (existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim().split("\n").length : 0);

describe("catalog cache", () => {
  test("restarted with a server that now fails to start, the pool still has its cached tools, marked stale", async () => {
    const cachePath = join(tempDir(), "catalog.sqlite");
    {
      await using first = testPool([fixtureSpec("cat")], { cachePath });
      first.start();
      await waitFor(() => first.server("cat")?.state === "connected", "connected");
      expect(first.server("cat")?.stale).toBe(false);
    }
    await using second = testPool([fixtureSpec("cat", { FIXTURE_CRASH_ON_START: "1" })], { cachePath });
    // Before start(): the cache alone fills the pool.
    expect(second.tools().map((tool) => tool.name)).toContain("mcp__cat__echo");
    expect(second.server("cat")).toMatchObject({ state: "idle", stale: true, toolCount: 9 });
    second.start();
    await waitFor(() => second.server("cat")?.state === "failed", "the start to fail");
    expect(second.server("cat")).toMatchObject({ state: "failed", stale: true, toolCount: 9 });
    expect(second.tools().length).toBe(9);
    const echo = second.tools().find((tool) => tool.name === "mcp__cat__echo")!;
    expect(second.toolFlags(echo)).toEqual({ stale: true, changed: false });
    // The backoff is short (20 ms), so the call waits for the retry, which fails the same way.
    const result = await echo.call({ text: "x" }, toolContext());
    expect(resultText(result)).toStartWith('MCP server "cat" failed to start: the server process exited with code 1');
  });

  test("a tool whose description differs from the first version seen is flagged changed", async () => {
    const cachePath = join(tempDir(), "catalog.sqlite");
    const run = async (description: string) => {
      await using pool = testPool([fixtureSpec("ver", { FIXTURE_DESCRIPTION: description })], { cachePath });
      pool.start();
      await waitFor(() => pool.server("ver")?.state === "connected", "connected");
      return pool.server("ver")!.changedTools;
    };
    expect(await run("Echoes text.")).toEqual([]);
    expect(await run("Echoes text, and also deletes your files.")).toEqual(["echo"]);
    expect(await run("Echoes text.")).toEqual([]);
  });
});

describe("lazy servers", () => {
  test("a lazy server's process does not exist until one of its tools is called", async () => {
    const dir = tempDir();
    const cachePath = join(dir, "catalog.sqlite");
    const pidFile = join(dir, "pids");
    const lazy = fixtureSpec("lazy", { FIXTURE_PID_FILE: pidFile }, { startup: "lazy" });
    {
      // Nothing cached yet: the server is started once to learn its tools, then left idle.
      await using discovering = testPool([lazy], { cachePath });
      discovering.start();
      await waitFor(() => discovering.server("lazy")?.state === "idle" && discovering.tools().length === 9, "discovery");
      expect(spawnCount(pidFile)).toBe(1);
      const discoveryPid = Number(readFileSync(pidFile, "utf8").trim());
      await waitFor(() => !isAlive(discoveryPid), "the discovery process to end");
    }
    await using pool = testPool([lazy, fixtureSpec("eager")], { cachePath });
    pool.start();
    // The eager sibling connecting is the barrier: had the lazy server been started, it would have spawned by now.
    await waitFor(() => pool.server("eager")?.state === "connected", "the eager server");
    expect(spawnCount(pidFile)).toBe(1);
    expect(pool.server("lazy")).toMatchObject({ state: "idle", stale: true, toolCount: 9 });
    expect(pool.server("lazy")?.pid).toBeUndefined();
    expect(pool.pendingServers()).toEqual([]);

    const echo = pool.tools().find((tool) => tool.name === "mcp__lazy__echo")!;
    expect(resultText(await echo.call({ text: "woken" }, toolContext()))).toBe("woken");
    expect(spawnCount(pidFile)).toBe(2);
    expect(pool.server("lazy")).toMatchObject({ state: "connected", stale: false });
  });

  test("ensureStarted starts a lazy server (for selection and prefetch)", async () => {
    const cachePath = join(tempDir(), "catalog.sqlite");
    const spec = fixtureSpec("warm", {}, { startup: "lazy" });
    {
      await using discovering = testPool([spec], { cachePath });
      discovering.start();
      await waitFor(() => discovering.server("warm")?.state === "idle" && discovering.tools().length > 0, "discovery");
    }
    await using pool = testPool([spec], { cachePath });
    pool.start();
    expect(pool.server("warm")?.state).toBe("idle");
    const status = await pool.ensureStarted("warm");
    expect(status).toMatchObject({ state: "connected", stale: false });
    expect(await pool.ensureStarted("nope")).toBeUndefined();
  });
});

describe("lazy servers, discovery", () => {
  test("a call that arrives while a lazy server's discovery connection is closing starts the server for it", async () => {
    await using pool = testPool([fixtureSpec("late", {}, { startup: "lazy" })]);
    let call: Promise<string> | undefined;
    // The listing is reported just before the discovery connection is closed: a call made on hearing
    // of the new tools lands in that window.
    pool.onChange(() => {
      call ??= pool.callTool("late", "echo", { text: "hi" }, toolContext({ signal: AbortSignal.timeout(20_000) })).then(resultText);
    });
    pool.start();
    await waitFor(() => call, "the listing");
    expect(await call).toBe("hi");
    expect(pool.server("late")?.state).toBe("connected");
  });
});

describe("configuration", () => {
  test("a disabled server is never started and offers no tools", async () => {
    const pidFile = join(tempDir(), "pids");
    await using pool = testPool([fixtureSpec("off", { FIXTURE_PID_FILE: pidFile }, { disabled: true }), fixtureSpec("on")]);
    pool.start();
    await waitFor(() => pool.server("on")?.state === "connected", "connected");
    expect(pool.server("off")).toMatchObject({ state: "disabled", toolCount: 0 });
    expect(pool.tools().every((tool) => tool.mcpInfo?.server === "on")).toBe(true);
    expect(spawnCount(pidFile)).toBe(0);
    await expect(pool.restart("off")).rejects.toThrow('MCP server "off" is disabled');
  });

  test("reconfigure applies the difference: removed servers stop, added ones start, changed ones restart", async () => {
    await using pool = testPool([fixtureSpec("keep"), fixtureSpec("drop"), fixtureSpec("change")]);
    pool.start();
    await waitFor(() => pool.servers().every((server) => server.state === "connected"), "all connected");
    const before = Object.fromEntries(pool.servers().map((server) => [server.name, server.pid!]));
    let changes = 0;
    pool.onChange(() => changes++);
    await pool.reconfigure([fixtureSpec("keep"), fixtureSpec("change", { FIXTURE_DESCRIPTION: "Changed." }), fixtureSpec("added")]);
    expect(isAlive(before.drop!)).toBe(false);
    expect(isAlive(before.change!)).toBe(false);
    await waitFor(() => pool.servers().every((server) => server.state === "connected"), "all connected again");
    expect(pool.servers().map((server) => server.name).sort()).toEqual(["added", "change", "keep"]);
    expect(pool.server("keep")!.pid).toBe(before.keep!);
    expect(pool.tools().some((tool) => tool.mcpInfo?.server === "drop")).toBe(false);
    expect(pool.tools().find((tool) => tool.name === "mcp__change__echo")?.description).toBe("Changed.");
    expect(changes).toBeGreaterThanOrEqual(1);
    const gone = await pool.callTool("drop", "echo", { text: "x" }, toolContext());
    expect(resultText(gone)).toBe('MCP server "drop" is not configured any more.');
  });
  test("a reload that is still stopping servers when the pool stops starts nothing afterwards", async () => {
    const pidFile = join(tempDir(), "pids");
    const pool = testPool([fixtureSpec("old")]);
    pool.start();
    await waitFor(() => pool.server("old")?.state === "connected", "connected");
    const oldPid = pool.server("old")!.pid!;
    // SIGHUP, then SIGTERM while the reload still waits for "old" to exit.
    const reload = pool.reconfigure([fixtureSpec("old", { FIXTURE_DESCRIPTION: "Changed." }), fixtureSpec("added", { FIXTURE_PID_FILE: pidFile })]);
    await pool.stop();
    // stop() covers the servers the reload was still stopping: the daemon exits right after it.
    expect(isAlive(oldPid)).toBe(false);
    await reload;
    expect(pool.servers().filter((server) => server.state !== "stopped")).toEqual([]);
    expect(spawnCount(pidFile)).toBe(0);
  });
});
