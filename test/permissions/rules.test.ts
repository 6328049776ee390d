/** Permission rules as a table: which calls each session setting allows and which it refuses. */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { evaluateRules, isToolDeniedOutright, parseRule, type PermissionSettings } from "../../src/permissions/rules.ts";
import { buildMcpTool, buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { JsonSchemaCompiler } from "../../src/validate/ajv.ts";

const call = async () => textResult("");
const Bash = buildTool({
  name: "Bash",
  description: "d",
  inputSchema: z.strictObject({ command: z.string() }),
  permissionSubject: ({ command }) => command,
  call,
});
const Read = buildTool({
  name: "Read",
  aliases: ["View"],
  description: "d",
  inputSchema: z.strictObject({ file_path: z.string() }),
  isReadOnly: () => true,
  permissionSubject: ({ file_path }) => file_path,
  call,
});
const Write = buildTool({ name: "Write", description: "d", inputSchema: z.strictObject({ file_path: z.string() }), permissionSubject: ({ file_path }) => file_path, call });
const Edit = buildTool({ name: "Edit", description: "d", inputSchema: z.strictObject({ file_path: z.string() }), destructive: true, permissionSubject: ({ file_path }) => file_path, call });
const NoSubject = buildTool({ name: "NoSubject", description: "d", inputSchema: z.strictObject({}), call });
const compiler = new JsonSchemaCompiler();
const mcp = (server: string, tool: string) =>
  buildMcpTool({ name: `mcp__${server}__${tool}`, description: "d", inputJSONSchema: { type: "object" }, mcpInfo: { server, tool }, call }, compiler);
const slackPost = mcp("slack", "post");
const slackRead = mcp("slack", "read");
const slackbotPost = mcp("slackbot", "post");
// What an MCP tool with `readOnlyHint: true` becomes: read-only and concurrency-safe.
const slackReadOnly = buildMcpTool(
  { name: "mcp__slack__history", description: "d", inputJSONSchema: { type: "object" }, mcpInfo: { server: "slack", tool: "history" }, isReadOnly: () => true, isConcurrencySafe: () => true, call },
  compiler,
);

const settings = (mode: PermissionSettings["mode"], allow: string[] = [], deny: string[] = []): PermissionSettings => ({ mode, allow, deny });

type Row = [label: string, PermissionSettings, Tool, Record<string, unknown>, true | string];
const ALLOWED = true;
const READ_ONLY = "the session is read-only and this call may write";
const NOT_COVERED = "no allow rule of this session covers it";

const table: Row[] = [
  ["default mode, no rules: writes are allowed", settings("default"), Write, { file_path: "/w/a" }, ALLOWED],
  ["deny by tool name", settings("default", [], ["Write"]), Write, { file_path: "/w/a" }, 'denied by the rule "Write"'],
  ["deny by name leaves other tools alone", settings("default", [], ["Write"]), Read, { file_path: "/w/a" }, ALLOWED],
  ["deny by alias", settings("default", [], ["View"]), Read, { file_path: "/w/a" }, 'denied by the rule "View"'],
  ["Bash(rm *) denies rm", settings("default", [], ["Bash(rm *)"]), Bash, { command: "rm -rf /" }, 'denied by the rule "Bash(rm *)"'],
  ["Bash(rm *) allows ls", settings("default", [], ["Bash(rm *)"]), Bash, { command: "ls" }, ALLOWED],
  ["Bash(git *) allows git", settings("default", ["Bash(git *)"]), Bash, { command: "git status" }, ALLOWED],
  ["with an allow list, an uncovered write is refused", settings("default", ["Bash(git *)"]), Bash, { command: "npm install" }, "no allow rule of this session covers it"],
  ["with an allow list, reads need no rule", settings("default", ["Bash(git *)"]), Read, { file_path: "/w/a" }, ALLOWED],
  ["a pattern is anchored: Bash(git *) does not match 'legit x'", settings("default", ["Bash(git *)"]), Bash, { command: "legit x" }, "no allow rule of this session covers it"],
  ["regex characters in a rule are literal", settings("default", [], ["Bash(echo a.b)"]), Bash, { command: "echo aXb" }, ALLOWED],
  ["Read(**/.env) denies .env at the top", settings("default", [], ["Read(**/.env)"]), Read, { file_path: "/w/.env" }, 'denied by the rule "Read(**/.env)"'],
  ["Read(**/.env) denies a nested .env", settings("default", [], ["Read(**/.env)"]), Read, { file_path: "/w/app/config/.env" }, 'denied by the rule "Read(**/.env)"'],
  ["Read(**/.env) allows .env.example", settings("default", [], ["Read(**/.env)"]), Read, { file_path: "/w/.env.example" }, ALLOWED],
  ["a relative pattern matches below cwd", settings("default", [], ["Read(secrets/*)"]), Read, { file_path: "/w/secrets/key" }, 'denied by the rule "Read(secrets/*)"'],
  ["a pattern rule never matches a tool without a subject", settings("default", [], ["NoSubject(*)"]), NoSubject, {}, ALLOWED],
  ["mcp__slack denies every slack tool", settings("default", [], ["mcp__slack"]), slackRead, {}, 'denied by the rule "mcp__slack"'],
  ["mcp__slack does not reach mcp__slackbot", settings("default", [], ["mcp__slack"]), slackbotPost, {}, ALLOWED],
  ["mcp__slack__post denies only that tool", settings("default", [], ["mcp__slack__post"]), slackPost, {}, 'denied by the rule "mcp__slack__post"'],
  ["mcp__slack__post leaves mcp__slack__read", settings("default", [], ["mcp__slack__post"]), slackRead, {}, ALLOWED],
  ["allowing a server covers its tools", settings("default", ["mcp__slack"]), slackPost, {}, ALLOWED],
  ["deny wins over allow", settings("default", ["Bash(git *)"], ["Bash(git push *)"]), Bash, { command: "git push origin" }, 'denied by the rule "Bash(git push *)"'],
  ["readOnly refuses Write", settings("readOnly"), Write, { file_path: "/w/a" }, READ_ONLY],
  ["readOnly refuses Edit", settings("readOnly"), Edit, { file_path: "/w/a" }, READ_ONLY],
  ["readOnly refuses Bash", settings("readOnly"), Bash, { command: "ls" }, READ_ONLY],
  ["readOnly refuses MCP tools without readOnlyHint", settings("readOnly"), slackPost, {}, READ_ONLY],
  ["readOnly allows MCP tools with readOnlyHint", settings("readOnly"), slackReadOnly, {}, ALLOWED],
  ["readOnly refuses a tool that declares nothing", settings("readOnly"), NoSubject, {}, READ_ONLY],
  ["readOnly allows read-only tools", settings("readOnly"), Read, { file_path: "/w/a" }, ALLOWED],
  ["readOnly is strict: an allow rule for Bash does not open it", settings("readOnly", ["Bash(git status)"]), Bash, { command: "git status" }, READ_ONLY],
  ["readOnly is strict: a tool-wide allow rule does not open Write", settings("readOnly", ["Write"]), Write, { file_path: "/w/a" }, READ_ONLY],
  ["readOnly is strict: allowing a server does not open its writing tools", settings("readOnly", ["mcp__slack"]), slackPost, {}, READ_ONLY],
  ["readOnly: deny still wins over a read", settings("readOnly", [], ["Read(**/.env)"]), Read, { file_path: "/w/.env" }, 'denied by the rule "Read(**/.env)"'],
  // Bash commands are split into simple commands; every part needs an allow rule, any part can be denied.
  ["Bash(git *) does not cover git && rm", settings("default", ["Bash(git *)"]), Bash, { command: "git status && rm -rf x" }, NOT_COVERED],
  ["Bash(git *) does not cover git; rm", settings("default", ["Bash(git *)"]), Bash, { command: "git status; rm -rf x" }, NOT_COVERED],
  ["Bash(git *) does not cover git || rm", settings("default", ["Bash(git *)"]), Bash, { command: "git pull || rm -rf x" }, NOT_COVERED],
  ["Bash(git *) does not cover a pipe into sh", settings("default", ["Bash(git *)"]), Bash, { command: "git log | sh" }, NOT_COVERED],
  ["Bash(git *) does not cover a second line", settings("default", ["Bash(git *)"]), Bash, { command: "git status\nrm -rf x" }, NOT_COVERED],
  ["Bash(git *) does not cover a backgrounded second command", settings("default", ["Bash(git *)"]), Bash, { command: "git status & rm -rf x" }, NOT_COVERED],
  ["Bash(git *) does not cover $(...)", settings("default", ["Bash(git *)"]), Bash, { command: "git log $(rm -rf x)" }, `${NOT_COVERED} (the command contains a command substitution $(...), which no allow rule can cover)`],
  ["Bash(git *) does not cover backticks", settings("default", ["Bash(git *)"]), Bash, { command: "git log `rm -rf x`" }, `${NOT_COVERED} (the command contains a command substitution \`...\`, which no allow rule can cover)`],
  ["Bash(git *) does not cover $(...) inside double quotes", settings("default", ["Bash(git *)"]), Bash, { command: 'git commit -m "$(rm -rf x)"' }, `${NOT_COVERED} (the command contains a command substitution $(...), which no allow rule can cover)`],
  ["Bash(git *) does not cover a redirection into a file", settings("default", ["Bash(git *)"]), Bash, { command: "git diff > ~/.bashrc" }, `${NOT_COVERED} (the command contains an output redirection to a file, which no allow rule can cover)`],
  ["Bash(git *) covers git with stderr folded into stdout", settings("default", ["Bash(git *)"]), Bash, { command: "git status 2>&1" }, ALLOWED],
  ["Bash(git *) covers git with output sent to /dev/null", settings("default", ["Bash(git *)"]), Bash, { command: "git fetch >/dev/null 2>&1" }, ALLOWED],
  ["separators inside quotes are text", settings("default", ["Bash(git *)"]), Bash, { command: "git commit -m 'a && rm -rf x; b | c'" }, ALLOWED],
  ["every part covered by some allow rule", settings("default", ["Bash(git *)", "Bash(npm test)"]), Bash, { command: "git pull && npm test" }, ALLOWED],
  ["git piped into grep, both allowed", settings("default", ["Bash(git *)", "Bash(grep *)"]), Bash, { command: "git log | grep fix" }, ALLOWED],
  ["a tool-wide Bash allow rule covers compound commands", settings("default", ["Bash"]), Bash, { command: "git status && rm -rf x" }, ALLOWED],
  ["a deny rule matching any part denies", settings("default", [], ["Bash(rm *)"]), Bash, { command: "git status && rm -rf x" }, 'denied by the rule "Bash(rm *)"'],
  ["a deny rule matching a command inside $(...) denies", settings("default", [], ["Bash(rm *)"]), Bash, { command: "echo $(rm -rf x)" }, 'denied by the rule "Bash(rm *)"'],
  ["a deny rule matching inside a subshell denies", settings("default", [], ["Bash(rm *)"]), Bash, { command: "(cd /tmp && rm -rf x)" }, 'denied by the rule "Bash(rm *)"'],
  ["a deny rule on a part wins in bypass too", settings("bypass", [], ["Bash(rm *)"]), Bash, { command: "ls; rm -rf x" }, 'denied by the rule "Bash(rm *)"'],
  ["a deny rule can still match the whole command", settings("default", [], ["Bash(*--force*)"]), Bash, { command: "git push --force && echo ok" }, 'denied by the rule "Bash(*--force*)"'],
  ["splitting is for Bash only: a path with ; is one subject", settings("default", [], ["Read(*rm*)"]), Read, { file_path: "/w/a;b" }, ALLOWED],
  ["bypass allows what no rule covers", settings("bypass", ["Bash(git *)"]), Bash, { command: "make" }, ALLOWED],
  ["bypass: deny still wins", settings("bypass", [], ["Write"]), Write, { file_path: "/w/a" }, 'denied by the rule "Write"'],
];

describe("evaluateRules", () => {
  for (const [label, session, tool, input, expected] of table) {
    test(label, () => {
      const verdict = evaluateRules(session, tool, input, "/w");
      expect(verdict).toEqual(expected === ALLOWED ? { allowed: true } : { allowed: false, reason: expected });
    });
  }
});

describe("rule parsing and outright denial", () => {
  test("parseRule reads the target and an optional pattern; malformed rules are refused", () => {
    expect(parseRule("Write")).toEqual({ target: "Write", source: "Write" });
    expect(parseRule("Bash(git *)").pattern?.source).toBe("^git .*$");
    for (const rule of ["", "Bash(", "two words", "Bash)x("]) expect(() => parseRule(rule)).toThrow("is malformed");
  });

  test("only rules without a pattern remove tools from the pool", () => {
    expect(isToolDeniedOutright({ deny: ["Write"] }, Write)).toBe(true);
    expect(isToolDeniedOutright({ deny: ["Bash(rm *)"] }, Bash)).toBe(false);
    expect(isToolDeniedOutright({ deny: ["mcp__slack"] }, slackPost)).toBe(true);
    expect(isToolDeniedOutright({ deny: ["mcp__slack"] }, slackbotPost)).toBe(false);
    expect(isToolDeniedOutright({ deny: ["View"] }, Read)).toBe(true);
  });
});
