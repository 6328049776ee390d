import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { createLogger } from "../../src/runtime/logger.ts";
import { CatalogCache, defaultCachePath } from "../../src/mcp/catalog-cache.ts";
import { tempDir } from "./helpers.ts";

const tool = (name: string, description = `${name} does things`, properties: Record<string, object> = {}): McpTool => ({
  name,
  description,
  inputSchema: { type: "object", properties },
});

function capturingLogger() {
  const lines: string[] = [];
  return { logger: createLogger("debug", (line) => lines.push(line)), lines };
}

describe("CatalogCache", () => {
  test("lives under $XDG_STATE_HOME/toolpool, else ~/.local/state/toolpool", () => {
    expect(defaultCachePath({ XDG_STATE_HOME: "/state", HOME: "/home/u" })).toBe("/state/toolpool/catalog.sqlite");
    expect(defaultCachePath({ HOME: "/home/u" })).toBe("/home/u/.local/state/toolpool/catalog.sqlite");
  });

  test("keeps each server's last list, in order, across reopening", () => {
    const path = join(tempDir(), "nested", "catalog.sqlite");
    const { logger } = capturingLogger();
    const first = CatalogCache.open(path, logger);
    expect(first.load("alpha")).toBeUndefined();
    first.save("alpha", [tool("b"), tool("a")], 1000);
    first.save("beta", [], 1000);
    first.save("alpha", [tool("c"), tool("b")], 2000);
    first.close();
    const again = CatalogCache.open(path, logger);
    expect(again.load("alpha")).toEqual({ tools: [tool("c"), tool("b")], changed: new Set(), listedAt: 2000 });
    expect(again.load("beta")).toEqual({ tools: [], changed: new Set(), listedAt: 1000 });
    again.close();
  });

  test("a tool whose description or schema differs from the first version seen is flagged, even after it left and came back", () => {
    const cache = CatalogCache.open(null, capturingLogger().logger);
    expect(cache.save("s", [tool("read"), tool("write")], 1)).toEqual(new Set());
    // Key order alone is not a change.
    expect(cache.save("s", [{ name: "read", inputSchema: { properties: {}, type: "object" }, description: "read does things" }, tool("write")], 2)).toEqual(new Set());
    expect(cache.save("s", [tool("read", "read now also deletes"), tool("write")], 3)).toEqual(new Set(["read"]));
    expect(cache.save("s", [tool("read", "read now also deletes")], 4)).toEqual(new Set(["read"]));
    expect(cache.save("s", [tool("read"), tool("write", "write does things", { mode: { type: "string" } })], 5)).toEqual(new Set(["write"]));
    expect(cache.load("s")?.changed).toEqual(new Set(["write"]));
  });

  test("a corrupt file is moved aside and rebuilt, never fatal", () => {
    const dir = tempDir();
    const path = join(dir, "catalog.sqlite");
    writeFileSync(path, "this is not a database, just some bytes that look nothing like SQLite".repeat(100));
    const { logger, lines } = capturingLogger();
    const cache = CatalogCache.open(path, logger, () => 1234);
    expect(cache.location).toBe(path);
    cache.save("s", [tool("a")], 1);
    expect(cache.load("s")?.tools).toEqual([tool("a")]);
    cache.close();
    expect(readdirSync(dir).sort()).toContain("catalog.sqlite.corrupt-1234");
    expect(existsSync(join(dir, "catalog.sqlite.corrupt-1234"))).toBe(true);
    expect(lines.join("")).toContain("catalog cache unreadable; moving it aside");
  });

  test("an uncreatable location falls back to memory", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "file"), "");
    const { logger, lines } = capturingLogger();
    const cache = CatalogCache.open(join(dir, "file", "catalog.sqlite"), logger);
    expect(cache.location).toBeNull();
    cache.save("s", [tool("a")], 1);
    expect(cache.load("s")?.tools.map((entry) => entry.name)).toEqual(["a"]);
    expect(lines.join("")).toContain("keeping it in memory for this run");
  });
});
