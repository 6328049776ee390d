/** The config entry's `alwaysLoad` names checked against what its server lists (mcp-pool.ts). */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createLogger } from "../../src/runtime/logger.ts";
import { fixtureSpec, testPool, waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

describe("alwaysLoad names", () => {
  test("a name no listed tool has (raw or pool name) is warned of, naming the server; a matching name makes its tool eager", async () => {
    // Attack: `alwaysLoad: ["ecoh"]` (misspelt) was a setting silently lost — no warning, the tool stayed deferred.
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger("warn", (line) => void lines.push(JSON.parse(line) as Record<string, unknown>));
    await using pool = testPool([fixtureSpec("fx", {}, { alwaysLoad: ["ecoh", "mcp__fx__echo", "mcp__other__echo"] })], { logger });
    pool.start();
    await waitFor(() => pool.server("fx")?.state === "connected", "connected");
    expect(pool.tools().find((tool) => tool.name === "mcp__fx__echo")?.alwaysLoad).toBe(true);
    const warned = lines.filter((line) => String(line.message).startsWith("config alwaysLoad names no tool"));
    expect(warned.map(({ message, server, names, count }) => ({ message, server, names, count }))).toEqual([
      { message: "config alwaysLoad names no tool the MCP server lists (raw or pool name): the setting does nothing", server: "fx", names: "ecoh, mcp__other__echo", count: 2 },
    ]);
  });
});
