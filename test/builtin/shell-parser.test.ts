/** The Bash grammar is loaded on the first Bash permission check, and a grammar that fails to load allows nothing. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createBashTool } from "../../src/builtin/bash.ts";
import { ShellParser } from "../../src/builtin/shell-parser.ts";
import { evaluateRules } from "../../src/permissions/rules.ts";

const REPO = join(import.meta.dir, "..", "..");

describe("ShellParser", () => {
  test("the grammar is not loaded with the built-ins, only by the first Bash check", async () => {
    const script = `
      const loaded = () => Object.keys(require.cache).filter((key) => key.includes("tree-sitter")).length > 0;
      const { builtinTools } = await import(${JSON.stringify(join(REPO, "src/builtin/list.ts"))});
      const bash = builtinTools().find((tool) => tool.name === "Bash");
      const before = loaded();
      await bash.access({ command: "echo hi" }, "/tmp");
      console.log(JSON.stringify({ before, after: loaded() }));`;
    const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe", cwd: REPO });
    const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    expect({ code, output: JSON.parse(stdout.trim()) }).toEqual({ code: 0, output: { before: false, after: true } });
  });

  test("a grammar that fails to load makes every command opaque, and is tried again next time", async () => {
    let attempts = 0;
    const failing = new ShellParser(async () => {
      attempts++;
      throw new Error("no wasm here");
    });
    const bash = createBashTool({ shellParser: failing });
    const input = { command: "echo hi" };
    const access = await bash.access(input, "/w");
    expect(access.shell?.opaque).toBe("a command the shell parser could not read (it failed to load: no wasm here)");
    expect(evaluateRules({ mode: "default", allow: ["Bash(echo *)"], deny: [] }, bash, input, "/w", access)).toEqual({
      allowed: false,
      reason: "no allow rule of the daemon's config covers it (the command contains a command the shell parser could not read (it failed to load: no wasm here), which no allow rule can cover)",
    });
    await bash.access(input, "/w");
    expect(attempts).toBe(2);
  });
});
