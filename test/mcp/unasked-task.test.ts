/**
 * A hostile 2025 server answers a plain `tools/call` (no task augmentation) with a task: the pool
 * asked for none and does not poll one, so the caller gets a tool error saying so, not an empty
 * success (the 2026-07-28 path says the same of `resultType: "task"`).
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { startMcpDaemon } from "./mcp-daemon.ts";
import { waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

const FIXTURE = join(import.meta.dir, "..", "fixtures", "mcp", "asking-2025-server.ts");

test("hostile: a task nobody asked for is a tool error naming it, not an empty success", async () => {
  await using running = await startMcpDaemon({ ask: { command: process.execPath, args: [FIXTURE], timeoutMs: 10_000 } });
  await waitFor(() => running.daemon.core.mcp()?.server("ask")?.state === "connected", "the 2025 server connected");
  const result = await running.client.call({ name: "mcp__ask__unasked_task", input: {} });
  expect({ isError: result.isError, content: result.content }).toEqual({
    isError: true,
    content: [{ type: "text", text: "The server answered unasked_task with a task (MCP's tasks), which toolpool did not ask for and does not follow; the call was not completed." }],
  });
});
