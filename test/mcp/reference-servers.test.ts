/** The four official reference servers, over stdio, through the pool: connect, list, call. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { demoServerSpecs } from "../../src/mcp/demo-config.ts";
import { resultText } from "../../src/tool/result.ts";
import { REPO_ROOT, tempDir, testPool, toolContext, waitFor } from "./helpers.ts";

// Real server processes: generous on a loaded machine; each test waits on conditions, not on time.
setDefaultTimeout(30_000);

describe("reference MCP servers", () => {
  test("everything, memory, filesystem and sequential-thinking connect (under Bun, no Node on PATH); memory's create_entities works end to end", async () => {
    const demo = demoServerSpecs(REPO_ROOT, tempDir());
    const workDir = demo.workDir;
    // Run by the checkout's Bun: with no Node on PATH at all, every server still connects.
    expect(demo.specs.map((spec) => spec.command)).toEqual(demo.specs.map(() => join(REPO_ROOT, "node_modules", ".bin", "bun")));
    const specs = demo.specs.map((spec) => ({ ...spec, env: { ...spec.env, PATH: tempDir() } }));
    await using pool = testPool(specs, { graceMs: 2_000 });
    pool.start();
    await waitFor(() => pool.servers().every((server) => server.state !== "pending"), "every server to settle", 20_000);
    expect(pool.servers().map((server) => [server.name, server.state, server.reason])).toEqual([
      ["everything", "connected", undefined],
      ["memory", "connected", undefined],
      ["filesystem", "connected", undefined],
      ["sequential-thinking", "connected", undefined],
    ]);
    const names = pool.tools().map((tool) => tool.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__filesystem__read_text_file");
    expect(names).toContain("mcp__sequential-thinking__sequentialthinking");

    const create = pool.tools().find((tool) => tool.name === "mcp__memory__create_entities")!;
    expect(create.validator({ entities: [{ name: "Ada" }] }).ok).toBe(false);
    const input = { entities: [{ name: "Ada Lovelace", entityType: "person", observations: ["wrote the first program"] }] };
    const created = await create.call(input, toolContext());
    expect(created.isError).toBe(false);
    expect(JSON.parse(resultText(created))).toEqual(input.entities);
    const stored = readFileSync(join(workDir, "memory.jsonl"), "utf8");
    expect(stored).toContain("Ada Lovelace");

    const search = pool.tools().find((tool) => tool.name === "mcp__memory__search_nodes")!;
    expect(resultText(await search.call({ query: "Ada" }, toolContext()))).toContain("wrote the first program");

    const echo = pool.tools().find((tool) => tool.name === "mcp__everything__echo")!;
    expect(echo.isReadOnly({})).toBe(true);
    expect(resultText(await echo.call({ message: "hello" }, toolContext()))).toBe("Echo: hello");
  });

  test("the demo refuses clearly when the reference servers are missing", () => {
    const empty = tempDir();
    expect(() => demoServerSpecs(empty)).toThrow(
      `--demo needs the reference MCP servers in ${join(empty, "node_modules", ".bin")}, but mcp-server-everything, mcp-server-memory, mcp-server-filesystem, mcp-server-sequential-thinking are missing`,
    );
  });
});
