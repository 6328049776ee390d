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
const NoSubject = buildTool({ name: "NoSubject", description: "d", inputSchema: z.strictObject({}), call });
const compiler = new JsonSchemaCompiler();
const mcp = (server: string, tool: string) =>
  buildMcpTool({ name: `mcp__${server}__${tool}`, description: "d", inputJSONSchema: { type: "object" }, mcpInfo: { server, tool }, call }, compiler);
const slackPost = mcp("slack", "post");
const slackRead = mcp("slack", "read");
const slackbotPost = mcp("slackbot", "post");

const settings = (mode: PermissionSettings["mode"], allow: string[] = [], deny: string[] = []): PermissionSettings => ({ mode, allow, deny });

type Row = [label: string, PermissionSettings, Tool, Record<string, unknown>, true | string];
const ALLOWED = true;

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
  ["readOnly refuses a tool that is not read-only", settings("readOnly"), Write, { file_path: "/w/a" }, "the session is read-only and this call may write (no allow rule covers it)"],
  ["readOnly refuses MCP tools without readOnlyHint", settings("readOnly"), slackPost, {}, "the session is read-only and this call may write (no allow rule covers it)"],
  ["readOnly allows read-only tools", settings("readOnly"), Read, { file_path: "/w/a" }, ALLOWED],
  ["readOnly: an explicit allow rule is an exception", settings("readOnly", ["Bash(git status)"]), Bash, { command: "git status" }, ALLOWED],
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
