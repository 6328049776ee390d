import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig, parseConfig } from "../../src/config/load.ts";
import { JsonTextError, parseJsonText } from "../../src/config/json-text.ts";
import { nearestKey } from "../../src/config/issue-text.ts";
import { resolveServerSpecs } from "../../src/mcp/server-spec.ts";

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof JsonTextError) return error.message;
    throw error;
  }
  throw new Error("expected an error");
}

describe("config errors a person can act on", () => {
  test("invalid JSON names the line and column", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolpool-test-config-"));
    const path = join(dir, "config.json");
    writeFileSync(path, '{\n  "workspaceRoots": ["."],\n  "toolSearch": "auto"\n  "logLevel": "debug"\n}\n');
    await expect(loadConfig({ path, explicit: true })).rejects.toThrow(
      `config ${path} is not valid JSON: line 4, column 3: expected , or } after the value of "toolSearch", found "\\""`,
    );
  });

  test("a workspace root written ~/… is under the home directory (the README's example)", async () => {
    const { mkdirSync } = await import("node:fs");
    const home = process.env.HOME!;
    mkdirSync(join(home, "code", "project"), { recursive: true });
    const dir = mkdtempSync(join(tmpdir(), "toolpool-test-config-"));
    const path = join(dir, "config.json");
    writeFileSync(path, JSON.stringify({ workspaceRoots: ["~/code/project", "~"] }));
    expect((await loadConfig({ path, explicit: true })).config.workspaceRoots).toEqual([join(home, "code", "project"), home]);
    writeFileSync(path, JSON.stringify({ workspaceRoots: ["~/no/such/dir"] }));
    await expect(loadConfig({ path, explicit: true })).rejects.toThrow(`${join(home, "no", "such", "dir")} does not exist`);
  });

  test("JSON positions: unclosed strings, trailing commas, the end of the text, depth", () => {
    expect(messageOf(() => parseJsonText('{"a": "b}'))).toBe('line 1, column 7: a string is not closed (missing ")');
    expect(messageOf(() => parseJsonText('{"a": [1, 2,]}'))).toBe('line 1, column 13: unexpected "]" where a value should be');
    expect(messageOf(() => parseJsonText('{"a": 1'))).toBe('line 1, column 8: expected , or } after the value of "a", found the end of the text');
    expect(messageOf(() => parseJsonText("[".repeat(200) + "]".repeat(200), { comments: true }))).toBe("line 1, column 130: nested deeper than 128 levels");
    // JSONC (VS Code, Cursor): comments and trailing commas are fine there.
    expect(parseJsonText('{\n // note\n "a": [1, 2,], /* x */ "b": {"c": true,},\n}', { comments: true })).toEqual({ a: [1, 2], b: { c: true } });
    // A "__proto__" key is plain data, never a prototype.
    const parsed = parseJsonText('{"__proto__": {"polluted": true}}', { comments: true }) as Record<string, unknown>;
    expect({ own: Object.keys(parsed), polluted: ({} as Record<string, unknown>).polluted }).toEqual({ own: ["__proto__"], polluted: undefined });
  });

  test("an unknown key gets did-you-mean, at the top level and inside a server", () => {
    expect(messageOf(() => parseConfig({ workspaceRoot: ["."] }, "c.json"))).toStartWith(
      'config c.json is invalid:\n  - top level: unknown key "workspaceRoot" (did you mean "workspaceRoots"?)',
    );
    expect(messageOf(() => parseConfig({ mcpServers: { fs: { command: "x", startp: "lazy" } } }, "c.json"))).toBe(
      'config c.json is invalid:\n  - field "mcpServers.fs": unknown key "mcpServers.fs.startp" (did you mean "startup"?); known keys here: type, command, args, env, cwd, startup, timeoutMs, maxConcurrent, maxQueued, disabled, alwaysLoad, defer, sandbox, url, headers, oauth',
    );
    expect(messageOf(() => parseConfig({ permissions: { mode: "default", alow: [] } }, "c.json"))).toContain('unknown key "permissions.alow" (did you mean "allow"?)');
    expect(nearestKey("zzzzzz", ["workspaceRoots", "toolSearch"])).toBeUndefined();
  });

  test("a permission rule that can never match is refused at load, named; Claude Code's Bash(rm:*) loads", () => {
    expect(messageOf(() => parseConfig({ permissions: { deny: ["Bash(rm:*)", "Bash(curl:* -o)"] } }, "c.json"))).toBe(
      'config c.json is invalid:\n  - field "permissions.deny.1": Permission rule "Bash(curl:* -o)" can never match anything: ":*" may only end a Bash rule, as in "Bash(npm run test:*)"',
    );
    expect(messageOf(() => parseConfig({ permissions: { allow: ["Bash()"] } }, "c.json"))).toContain('Permission rule "Bash()" can never match anything: its pattern is empty');
    expect(parseConfig({ permissions: { deny: ["Bash(rm:*)", "Bash(npm run test:*)"] } }, "c.json").permissions?.deny).toEqual(["Bash(rm:*)", "Bash(npm run test:*)"]);
  });

  test("a defer key that can never name a tool (a server's name, a meta-tool) is refused, saying what to write", () => {
    // Attack: `"defer": {"mcp__github": "never"}` meant a whole server and `"ToolSearch": "always"` the
    // search tool itself; both were logged as "names no tool" and did nothing.
    expect(messageOf(() => parseConfig({ defer: { mcp__github: "never", ToolSearch: "always", ExecuteExtraTool: "never", StructuredOutput: "auto", mcp__github__create_issue: "never", Read: "always" } }, "c.json"))).toBe(
      [
        "config c.json is invalid:",
        '  - field "defer.mcp__github": "mcp__github" names an MCP server, not a tool (a tool\'s pool name is mcp__github__<tool>): to decide for all of its tools, set mcpServers.github.defer',
        '  - field "defer.ToolSearch": ToolSearch is a meta-tool: a session has it by its delivery (or its outputSchema), never deferred and never made eager by defer',
        '  - field "defer.ExecuteExtraTool": ExecuteExtraTool is a meta-tool: a session has it by its delivery (or its outputSchema), never deferred and never made eager by defer',
        '  - field "defer.StructuredOutput": StructuredOutput is a meta-tool: a session has it by its delivery (or its outputSchema), never deferred and never made eager by defer',
      ].join("\n"),
    );
    // Pool names of tools, and names of built-ins a binary may not have, still load (the latter are warned of, live-pool.ts).
    expect(parseConfig({ defer: { mcp__my_server__get: "never", mcp__a__b__c: "always", Reed: "always" } }, "c.json").defer).toEqual({ mcp__my_server__get: "never", mcp__a__b__c: "always", Reed: "always" });
  });

  test("a server name with a space names the allowed characters", () => {
    expect(messageOf(() => parseConfig({ mcpServers: { "my server": { command: "x" } } }, "c.json"))).toBe(
      'config c.json is invalid:\n  - field "mcpServers": the name "my server" is not allowed: server names use [a-zA-Z0-9_-]',
    );
  });

  test("an unclosed ${VAR is refused naming the server and the field", async () => {
    const config = (server: Record<string, unknown>) => parseConfig({ mcpServers: { gh: server } }, "c.json");
    await expect(resolveServerSpecs(config({ command: "x", args: ["--token", "${GITHUB_TOKEN"] }), { env: { GITHUB_TOKEN: "t" } })).rejects.toThrow(
      'MCP server "gh": field "args.1" has an unclosed variable reference "${GITHUB_TOKEN": write ${NAME} or ${NAME:-default}',
    );
    await expect(resolveServerSpecs(config({ type: "http", url: "https://x.test/mcp", headers: { Authorization: "Bearer ${1TOKEN}" } }), { env: {} })).rejects.toThrow(
      'MCP server "gh": field "headers.Authorization" has an invalid variable reference "${1TOKEN}"',
    );
    // Well-formed references still expand.
    const [spec] = await resolveServerSpecs(config({ command: "x", args: ["${A}", "${B:-b}"] }), { env: { A: "a" } });
    expect(spec && "args" in spec ? spec.args : []).toEqual(["a", "b"]);
  });
});
