/**
 * The MCP SDK stays out of a daemon that has no MCP server: nothing the daemon (or serve) imports
 * statically may import it — only `require()`s inside the branch that starts the pool may. The
 * OAuth, profile and project modules are checked by the same walk.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const SRC = join(import.meta.dir, "..", "..", "src");

/** Static value imports only: `import type` and `require()` are not loaded with the module. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+["']([^"']+)["'];?$/gms)].map((match) => match[1]!);
}

function reachable(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    const targets = staticImports(file);
    seen.set(file, targets);
    for (const target of targets) if (target.startsWith(".")) queue.push(resolve(dirname(file), target));
  }
  return seen;
}

describe("the MCP SDK is loaded lazily", () => {
  for (const entry of ["daemon/daemon.ts", "cli/serve.ts", "cli/auth-command.ts", "cli/trust-command.ts"]) {
    test(`nothing ${entry} imports statically pulls in @modelcontextprotocol/sdk`, () => {
      const offenders = [...reachable(join(SRC, entry))].flatMap(([file, targets]) =>
        targets.filter((target) => target.startsWith("@modelcontextprotocol/")).map((target) => `${file.slice(SRC.length + 1)} → ${target}`),
      );
      expect(offenders).toEqual([]);
    });
  }

  test("the walk does see the SDK where it is imported (the pool itself)", () => {
    const pool = [...reachable(join(SRC, "mcp/mcp-pool.ts")).values()].flat();
    expect(pool).toContain("@modelcontextprotocol/sdk/client/auth.js");
  });
});
