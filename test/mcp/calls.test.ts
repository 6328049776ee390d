/** Calls through the pool to real servers: size caps, timeouts, progress, cancellation, list_changed, HTTP sessions. */
import { executeTool } from "../../src/pipeline/execute.ts";
import { DEFAULT_PERMISSIONS } from "../../src/permissions/rules.ts";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ProgressUpdate } from "../../src/tool/tool.ts";
import { resultText } from "../../src/tool/result.ts";
import { fixtureSpec, startHttpFixture, tempDir, testPool, toolContext, waitFor } from "./helpers.ts";

// Real server processes: generous on a loaded machine; each test waits on conditions, not on time.
setDefaultTimeout(30_000);

const MiB = 1024 * 1024;

describe("calls", () => {
  test("a 12 MiB result is truncated with a note and the server stays connected", async () => {
    await using pool = testPool([fixtureSpec("big")]);
    pool.start();
    await waitFor(() => pool.server("big")?.state === "connected", "connected");
    const pid = pool.server("big")!.pid;
    const big = pool.tools().find((tool) => tool.name === "mcp__big__big")!;
    // Capped once, by the pipeline, at the tool's own limit.
    const result = await executeTool(big.name, { bytes: 12 * MiB }, toolContext(), { lookup: () => big, permissions: DEFAULT_PERMISSIONS });
    const text = resultText(result);
    expect(result.isError).toBe(false);
    expect(text.length).toBeLessThan(101_000);
    expect(text).toEndWith(`[toolpool: output truncated — showing 100,000 of ${(12 * MiB).toLocaleString("en-US")} characters. Ask for a narrower range or a filtered result to see the rest.]`);
    expect(pool.server("big")).toMatchObject({ state: "connected", pid, restarts: 0 });
    const echo = pool.tools().find((tool) => tool.name === "mcp__big__echo")!;
    expect(resultText(await echo.call({ text: "still here" }, toolContext()))).toBe("still here");
  });

  test("a message over the line limit fails only its own call, at once", async () => {
    await using pool = testPool([fixtureSpec("huge")], { maxLineBytes: 2 * MiB });
    pool.start();
    await waitFor(() => pool.server("huge")?.state === "connected", "connected");
    const big = pool.tools().find((tool) => tool.name === "mcp__huge__big")!;
    const result = await big.call({ bytes: 3 * MiB }, toolContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^MCP server "huge" returned an error for big: MCP error -32603: MCP server sent a \d+-byte message, over the 2097152-byte limit; it was discarded$/);
    expect(pool.server("huge")?.state).toBe("connected");
    const echo = pool.tools().find((tool) => tool.name === "mcp__huge__echo")!;
    expect(resultText(await echo.call({ text: "fine" }, toolContext()))).toBe("fine");
  });

  test("the server's timeout fails a silent call; progress extends it and is forwarded", async () => {
    await using pool = testPool([fixtureSpec("timed", {}, { timeoutMs: 300 })]);
    pool.start();
    await waitFor(() => pool.server("timed")?.state === "connected", "connected");
    const slow = pool.tools().find((tool) => tool.name === "mcp__timed__slow")!;
    const silent = await slow.call({ ms: 1_000 }, toolContext());
    expect(resultText(silent)).toBe('MCP server "timed" did not answer slow within 0.3 s (and reported no progress meanwhile), so the call was cancelled.');
    const progress: ProgressUpdate[] = [];
    const chatty = await slow.call({ ms: 900, progressEveryMs: 100 }, toolContext({ onProgress: (update) => progress.push(update) }));
    expect(resultText(chatty)).toBe("waited 900 ms");
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress[0]).toEqual({ progress: 1, message: "step 1" });
  });

  test("every progress notification arrives, the last one too, when it leaves the server together with the result", async () => {
    await using pool = testPool([fixtureSpec("bursty")]);
    pool.start();
    await waitFor(() => pool.server("bursty")?.state === "connected", "connected");
    const slow = pool.tools().find((tool) => tool.name === "mcp__bursty__slow")!;
    for (const count of [1, 4, 20]) {
      const progress: ProgressUpdate[] = [];
      const result = await slow.call({ ms: 0, burst: count }, toolContext({ onProgress: (update) => progress.push(update) }));
      expect(resultText(result)).toBe(`reported ${count}`);
      expect(progress.map((update) => update.progress)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    }
  });

  test("progress cannot extend a call past the hard cap", async () => {
    await using pool = testPool([fixtureSpec("capped", {}, { timeoutMs: 300 })], { hardCapMs: 500 });
    pool.start();
    await waitFor(() => pool.server("capped")?.state === "connected", "connected");
    const slow = pool.tools().find((tool) => tool.name === "mcp__capped__slow")!;
    // The hard cap is the tool's deadline, owned by the one pipeline.
    expect(slow.timeoutMs).toBe(500);
    const result = await executeTool(slow.name, { ms: 5_000, progressEveryMs: 50 }, toolContext(), { lookup: () => slow, permissions: DEFAULT_PERMISSIONS });
    expect(resultText(result)).toBe("mcp__capped__slow timed out after 500 ms and was stopped.");
  });

  test("a client's cancellation reaches the server as notifications/cancelled", async () => {
    const cancelFile = join(tempDir(), "cancelled");
    await using pool = testPool([fixtureSpec("cancel", { FIXTURE_CANCEL_FILE: cancelFile })]);
    pool.start();
    await waitFor(() => pool.server("cancel")?.state === "connected", "connected");
    const wait = pool.tools().find((tool) => tool.name === "mcp__cancel__wait_for_cancel")!;
    const controller = new AbortController();
    const call = wait.call({}, toolContext({ signal: controller.signal }));
    await waitFor(() => pool.server("cancel")?.inFlight === 1, "in flight");
    controller.abort(new Error("user pressed escape"));
    expect(resultText(await call)).toBe('The call to wait_for_cancel on MCP server "cancel" was cancelled.');
    await waitFor(() => existsSync(cancelFile) && readFileSync(cancelFile, "utf8") === "cancelled", "the server to see the cancellation");
    expect(pool.server("cancel")?.state).toBe("connected");
  });

  test("tools/list_changed adds and removes tools without a restart, and tells listeners", async () => {
    await using pool = testPool([fixtureSpec("dyn")]);
    let changes = 0;
    pool.onChange(() => changes++);
    pool.start();
    await waitFor(() => pool.server("dyn")?.state === "connected", "connected");
    await waitFor(() => changes === 1, "the first listing to be announced");
    const call = (name: string, input: Record<string, unknown>) => pool.tools().find((tool) => tool.name === `mcp__dyn__${name}`)!.call(input, toolContext());
    await call("add_tool", { name: "fresh_tool" });
    await waitFor(() => pool.tools().some((tool) => tool.name === "mcp__dyn__fresh_tool"), "the added tool");
    expect(resultText(await call("fresh_tool", {}))).toBe("fresh_tool");
    await call("remove_tool", { name: "fresh_tool" });
    await waitFor(() => !pool.tools().some((tool) => tool.name === "mcp__dyn__fresh_tool"), "the tool to be removed");
    expect(changes).toBeGreaterThanOrEqual(3);
    expect(pool.server("dyn")).toMatchObject({ state: "connected", restarts: 0, toolCount: 9 });
  });

  test("an HTTP session the server forgot (404) is re-initialized once, transparently", async () => {
    await using http = await startHttpFixture();
    await using pool = testPool([{ name: "web", transport: "http", url: http.url, headers: {}, startup: "eager", timeoutMs: 5_000, disabled: false, alwaysLoad: [], origin: "test" }]);
    pool.start();
    await waitFor(() => pool.server("web")?.state === "connected", "connected");
    const echo = pool.tools().find((tool) => tool.name === "mcp__web__echo")!;
    expect(resultText(await echo.call({ text: "one" }, toolContext()))).toBe("one");
    await fetch(`${http.base}/forget`, { method: "POST" });
    expect(resultText(await echo.call({ text: "two" }, toolContext()))).toBe("two");
    expect(await (await fetch(`${http.base}/stats`)).json()).toEqual({ opened: 2, live: 1 });
    expect(pool.server("web")).toMatchObject({ state: "connected", transport: "http", restarts: 0 });
  });

  test("the legacy SSE transport connects and calls", async () => {
    await using http = await startHttpFixture();
    await using pool = testPool([{ name: "legacy", transport: "sse", url: http.sseUrl, headers: {}, startup: "eager", timeoutMs: 5_000, disabled: false, alwaysLoad: [], origin: "test" }]);
    pool.start();
    await waitFor(() => pool.server("legacy")?.state !== "pending" && pool.server("legacy")?.state !== "idle", "settled");
    expect(pool.server("legacy")).toMatchObject({ state: "connected", transport: "sse", toolCount: 2 });
    const echo = pool.tools().find((tool) => tool.name === "mcp__legacy__echo")!;
    expect(resultText(await echo.call({ text: "over sse" }, toolContext()))).toBe("over sse");
  });

  test("an unreachable HTTP server is failed with the reason, and its calls fail clearly", async () => {
    const http = await startHttpFixture();
    const url = http.url;
    await http[Symbol.asyncDispose]();
    await using pool = testPool([{ name: "gone", transport: "http", url, headers: {}, startup: "eager", timeoutMs: 2_000, disabled: false, alwaysLoad: [], origin: "test" }]);
    pool.start();
    await waitFor(() => pool.server("gone")?.state === "failed", "failed");
    expect(pool.server("gone")?.reason).toContain("ECONNREFUSED");
    expect(pool.server("gone")?.nextRetryAt).toBeString();
  });
});
