/** Permission rules as a table: which calls each session setting allows and which it refuses. */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { createBashTool } from "../../src/builtin/bash.ts";
import { evaluateRules, evaluateRulesPaced, isToolDeniedOutright, parseRule, type PermissionSettings } from "../../src/permissions/rules.ts";
import { buildMcpTool, buildTool, NO_PATHS } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { JsonSchemaCompiler } from "../../src/validate/ajv.ts";

const call = async () => textResult("");
// The real Bash tool: its access is the command's parse, which these rules are about.
const Bash = createBashTool();
const Read = buildTool({
  name: "Read",
  aliases: ["View"],
  description: "d",
  inputSchema: z.strictObject({ file_path: z.string() }),
  isReadOnly: () => true,
  permissionSubject: ({ file_path }) => file_path,
  access: ({ file_path }) => ({ reads: [file_path], writes: [] }),
  call,
});
const Write = buildTool({ name: "Write", description: "d", inputSchema: z.strictObject({ file_path: z.string() }), permissionSubject: ({ file_path }) => file_path, access: ({ file_path }) => ({ reads: [], writes: [file_path] }), call });
const Edit = buildTool({ name: "Edit", description: "d", inputSchema: z.strictObject({ file_path: z.string() }), destructive: true, permissionSubject: ({ file_path }) => file_path, access: ({ file_path }) => ({ reads: [file_path], writes: [file_path] }), call });
const Grep = buildTool({ name: "Grep", description: "d", inputSchema: z.strictObject({ path: z.string() }), isReadOnly: () => true, permissionSubject: ({ path }) => path, access: ({ path }) => ({ reads: [path], writes: [] }), call });
const NoSubject = buildTool({ name: "NoSubject", description: "d", inputSchema: z.strictObject({}), access: () => NO_PATHS, call });
// Declares nothing about its paths: buildTool's fail-closed default.
const Undeclared = buildTool({ name: "Undeclared", description: "d", inputSchema: z.strictObject({}), isReadOnly: () => true, call });
const compiler = new JsonSchemaCompiler();
const mcp = (server: string, tool: string) =>
  buildMcpTool({ name: `mcp__${server}__${tool}`, description: "d", inputJSONSchema: { type: "object" }, mcpInfo: { server, tool }, call }, compiler);
const slackPost = mcp("slack", "post");
const slackRead = mcp("slack", "read");
const slackbotPost = mcp("slackbot", "post");
// Server names may hold "__" (the config allows [a-zA-Z0-9_-]): rules match the server's identity.
const doubleServer = mcp("x__y", "t");
const plainServerTool = mcp("x", "y__t");
// What an MCP tool with `readOnlyHint: true` becomes: read-only and concurrency-safe.
const slackReadOnly = buildMcpTool(
  { name: "mcp__slack__history", description: "d", inputJSONSchema: { type: "object" }, mcpInfo: { server: "slack", tool: "history" }, isReadOnly: () => true, isConcurrencySafe: () => true, call },
  compiler,
);

const settings = (mode: PermissionSettings["mode"], allow: string[] = [], deny: string[] = []): PermissionSettings => ({ mode, allow, deny });

type Row = [label: string, PermissionSettings, Tool, Record<string, unknown>, true | string];
const ALLOWED = true;
const READ_ONLY = "the session is read-only and this call may write";
const NOT_COVERED = "no allow rule of the daemon's config covers it";

const RUNS = (command: string) => `${NOT_COVERED} (it runs ${command})`;
const ESCAPES = (what: string) => `${NOT_COVERED} (the command contains ${what}, which no allow rule can cover)`;
const DENIED_RM = (command: string) => `denied by the rule "Bash(rm *)" (it runs ${command})`;
const OPAQUE_RM = (what: string) => `denied by the rule "Bash(rm *)": the command contains ${what}, which the rules cannot see through`;

function bashRows(): Row[] {
  const git = settings("default", ["Bash(git *)"]);
  const echoNotRm = settings("default", ["Bash(echo *)"], ["Bash(rm *)"]);
  const denyRm = settings("default", [], ["Bash(rm *)"]);
  const row = (label: string, session: PermissionSettings, command: string, expected: true | string): Row => [label, session, Bash, { command }, expected];
  return [
    row("Bash(git *) does not cover git && rm", git, "git status && rm -rf x", RUNS("rm -rf x")),
    row("Bash(git *) does not cover git; rm", git, "git status; rm -rf x", RUNS("rm -rf x")),
    row("Bash(git *) does not cover git || rm", git, "git pull || rm -rf x", RUNS("rm -rf x")),
    row("Bash(git *) does not cover a pipe into sh", git, "git log | sh", ESCAPES("`sh` reading commands from its input")),
    row("Bash(git *) does not cover a second line", git, "git status\nrm -rf x", RUNS("rm -rf x")),
    row("Bash(git *) does not cover a backgrounded second command", git, "git status & rm -rf x", RUNS("rm -rf x")),
    row("Bash(git *) does not cover the command inside $(...)", git, "git log $(rm -rf x)", RUNS("rm -rf x")),
    row("Bash(git *) does not cover the command inside backticks", git, "git log `rm -rf x`", RUNS("rm -rf x")),
    row("Bash(git *) does not cover $(...) inside double quotes", git, 'git commit -m "$(rm -rf x)"', RUNS("rm -rf x")),
    row("Bash(git *) does not cover a redirection into a file", git, "git diff > ~/.bashrc", ESCAPES("an output redirection to a file")),
    row("Bash(git *) covers git with stderr folded into stdout", git, "git status 2>&1", ALLOWED),
    row("Bash(git *) covers git with output sent to /dev/null", git, "git fetch >/dev/null 2>&1", ALLOWED),
    row("separators inside quotes are text", git, "git commit -m 'a && rm -rf x; b | c'", ALLOWED),
    row("every command covered by some allow rule", settings("default", ["Bash(git *)", "Bash(npm test)"]), "git pull && npm test", ALLOWED),
    row("git piped into grep, both allowed", settings("default", ["Bash(git *)", "Bash(grep *)"]), "git log | grep fix", ALLOWED),
    row("a substitution whose commands are all covered is covered", settings("default", ["Bash(git *)", "Bash(date)"]), "git commit -m \"$(date)\"", ALLOWED),
    row("a tool-wide Bash allow rule covers compound commands", settings("default", ["Bash"]), "git status && rm -rf x", ALLOWED),
    row("a deny rule matching any command denies", denyRm, "git status && rm -rf x", DENIED_RM("rm -rf x")),
    row("a deny rule matching a command inside $(...) denies", denyRm, "echo $(rm -rf x)", DENIED_RM("rm -rf x")),
    row("a deny rule matching inside a subshell denies", denyRm, "(cd /tmp && rm -rf x)", DENIED_RM("rm -rf x")),
    row("a deny rule on a command wins in bypass too", settings("bypass", [], ["Bash(rm *)"]), "ls; rm -rf x", DENIED_RM("rm -rf x")),
    row("a deny rule can still match the whole command", settings("default", [], ["Bash(*--force*)"]), "git push --force && echo ok", 'denied by the rule "Bash(*--force*)"'),
    // The attacks the old scanner lost to (issue 15).
    row("an ANSI-C string does not hide the command after it", echoNotRm, "echo $'a\\'b' ; rm -f x", DENIED_RM("rm -f x")),
    row("an ANSI-C string with \\' is not closed early (allow side)", settings("default", ["Bash(echo *)"]), "echo $'a\\'b' ; touch x", RUNS("touch x")),
    row("a command substitution inside ${x:-...} is checked", echoNotRm, "echo ${x:-$(rm -f f)}", DENIED_RM("rm -f f")),
    row("a substitution in a parameter expansion inside quotes is checked", echoNotRm, 'echo "${x:-"$(rm -f f)"}"', DENIED_RM("rm -f f")),
    row(">&1file writes a file: no allow rule covers it", echoNotRm, "echo >&1file", ESCAPES("an output redirection to a file")),
    row("$(...) is checked with no allow list too", denyRm, "echo $(rm -f f)", DENIED_RM("rm -f f")),
    row("quoting the name does not dodge a deny rule", denyRm, "'rm' -rf x", DENIED_RM("rm -rf x")),
    row("a backslash in the name does not dodge a deny rule", denyRm, "\\rm -rf x", DENIED_RM("rm -rf x")),
    row("a path to the program does not dodge a deny rule", denyRm, "/bin/rm -rf x", DENIED_RM("rm -rf x")),
    row("a tab for a space does not dodge a deny rule", denyRm, "rm\t-rf x", DENIED_RM("rm -rf x")),
    row("a wrapper does not dodge a deny rule", denyRm, "sudo -n rm -rf x", DENIED_RM("rm -rf x")),
    row("a wrapper given the program's path does not dodge it", denyRm, "nice -n 1 /usr/bin/rm -rf x", DENIED_RM("rm -rf x")),
    row("the dynamic loader is a wrapper", denyRm, "/lib64/ld-linux-x86-64.so.2 /bin/rm x", DENIED_RM("rm x")),
    row("personality and limit setters are wrappers", denyRm, "setarch x86_64 prlimit --nofile=100 rm x", DENIED_RM("rm x")),
    row("a file descriptor before a here-string is not an argument: bash reads the script from it", denyRm, "bash 0<<<'rm x'", OPAQUE_RM("`bash` reading commands from its input")),
    row("a shell given /dev/stdin reads the request's own text", denyRm, "bash /dev/stdin <<< 'rm x'", OPAQUE_RM("`bash` reading commands from its input")),
    row("BASH_ENV makes the next shell run code", denyRm, "BASH_ENV=/dev/stdin bash -c true <<< 'rm x'", OPAQUE_RM("a change to BASH_ENV, which changes what later commands run or read")),
    row("watch runs its words as a shell string", denyRm, "watch -n 1 -g 'rm -f x'", OPAQUE_RM("`watch`, which runs a command string or a shell of its own")),
    row("a wrapper with too many words to check is opaque", denyRm, `env ${Array.from({ length: 20 }, (_, index) => `V${index}=1`).join(" ")} rm -rf x`, OPAQUE_RM("`env` with more than 16 arguments")),
    row("xargs does not dodge a deny rule", denyRm, "ls | xargs rm", DENIED_RM("rm …")),
    row("bash -c is parsed and checked", denyRm, "bash -c 'rm -rf x'", DENIED_RM("rm -rf x")),
    row("eval is parsed and checked", denyRm, "eval 'rm -rf x'", DENIED_RM("rm -rf x")),
    row("a function body is checked", denyRm, "f() { rm -rf x; }; f", DENIED_RM("rm -rf x")),
    row("a heredoc body's substitution is checked", denyRm, "cat <<EOF\n$(rm -rf x)\nEOF", DENIED_RM("rm -rf x")),
    row("a quoted heredoc body is text", denyRm, "cat <<'EOF'\n$(rm -rf x)\nEOF", ALLOWED),
    row("a command name known only at run time is denied when a deny rule exists", denyRm, "$cmd -rf x", OPAQUE_RM("a command name known only at run time")),
    row("a shell reading its input is denied when a deny rule exists", denyRm, "echo 'rm -rf x' | bash", OPAQUE_RM("`bash` reading commands from its input")),
    row("source is opaque", denyRm, "source ./script.sh", OPAQUE_RM("`source`, which runs commands the rules cannot see")),
    row("arithmetic on variables is opaque", denyRm, "x=$1; echo $((x))", OPAQUE_RM("arithmetic on variables (bash evaluates their values, which can run commands)")),
    row("quoted substitution syntax is opaque (bash may evaluate it later)", denyRm, "x='a[$(rm -f f)]'; echo $((x))", OPAQUE_RM("`$(…)` or a backquote inside quoted text, which bash can evaluate later")),
    row("…in a builtin that takes variable names", denyRm, "printf -v 'a[$(rm -f f)]' x", OPAQUE_RM("`$(…)` or a backquote inside quoted text, which bash can evaluate later")),
    row("a program's quoted argument is handed over as it is: a commit message with backquotes", denyRm, "git commit -m 'use `rm` with care'", ALLOWED),
    row("echo prints quoted substitution syntax, it does not run it", denyRm, "echo 'try $(rm -f f)'", ALLOWED),
    row("${x@P} is opaque", denyRm, "echo ${x@P}", OPAQUE_RM("the parameter expansion ${x@P}")),
    row("nested backquotes are opaque", denyRm, "echo `echo \\`rm x\\``", OPAQUE_RM("nested backquotes")),
    row("a syntax error is opaque", denyRm, "echo (", OPAQUE_RM('a syntax error near "("')),
    row("an opaque command is never covered", settings("default", ["Bash(echo *)"]), "eval \"$x\"", ESCAPES("`eval` of text known only at run time")),
    row("an opaque command without any rule to check runs (nothing to see)", settings("default"), "eval \"$x\"", ALLOWED),
    row("a function definition is never covered", settings("default", ["Bash(echo *)"]), "echo() { git push; }; echo", ESCAPES("a function definition")),
    row("an env prefix is part of the reading allow rules match", git, "GIT_SSH_COMMAND='rm -rf x' git fetch", RUNS("GIT_SSH_COMMAND='rm -rf x' git fetch")),
    row("a deny rule sees the command without its env prefix", denyRm, "X=1 rm -rf x", DENIED_RM("rm -rf x")),
    row("an argument with a variable still matches a deny rule", settings("default", [], ["Bash(rm -rf /)"]), 'rm -rf "$dir"', 'denied by the rule "Bash(rm -rf /)" (it runs rm -rf …)'),
    row("a variable argument does not stop an unrelated allow", settings("default", ["Bash(echo *)"]), 'echo "$HOME"', ALLOWED),
    row("a glob is a hole the allow rule must absorb", settings("default", ["Bash(ls *)"]), "ls *.ts", ALLOWED),
    row("a glob in the name is opaque", denyRm, "r? -rf x", OPAQUE_RM("a command name known only at run time")),
    // Path rules over Bash.
    row("Read(**/.env) denies cat .env", settings("default", [], ["Read(**/.env)"]), "cat .env", 'denied by the rule "Read(**/.env)" (the call reads /w/.env)'),
    row("Read(**/.env) denies an argument known only at run time", settings("default", [], ["Read(**/.env)"]), 'cat "$f"', 'denied by the rule "Read(**/.env)" (the call reads …)'),
    row("Read(**/.env) leaves echo .env alone (echo opens nothing)", settings("default", [], ["Read(**/.env)"]), "echo .env", ALLOWED),
    row("a `..` after a written segment is not folded: it may follow a symlink (/dev/fd/.. is /proc/self)", settings("default", [], ["Read(/w/secrets/*)"]), "cat /dev/fd/../cwd/secrets/key", 'denied by the rule "Read(/w/secrets/*)" (the call reads …)'),
    row("…and through a link of the workspace", settings("default", [], ["Read(/w/secrets/*)"]), "cat src/lnk/../secrets/key", 'denied by the rule "Read(/w/secrets/*)" (the call reads …)'),
    row("a `..` over the real working directory is folded", settings("default", [], ["Read(/secrets/*)"]), "cat ../README.md", ALLOWED),
    row("/dev/fd/3 names the file opened on descriptor 3: a write there is a write to an unknown path", settings("default", [], ["Edit(/w/victim)"]), "echo pwned 3<victim >/dev/fd/3", 'denied by the rule "Edit(/w/victim)" (the call writes …)'),
    row("…and /dev/stdin the file on descriptor 0", settings("default", [], ["Edit(/w/victim)"]), "echo pwned <victim >/dev/stdin", 'denied by the rule "Edit(/w/victim)" (the call writes …)'),
    row("/dev/stderr stays a device", settings("default", [], ["Edit(/w/victim)"]), "echo oops > /dev/stderr", ALLOWED),
    row("Edit(**/.env) leaves cat .env alone (cat only reads)", settings("default", [], ["Edit(**/.env)"]), "cat .env", ALLOWED),
    row("Write(**/.env) governs Bash writes too", settings("default", [], ["Write(**/.env)"]), "echo x > .env", 'denied by the rule "Write(**/.env)" (the call writes /w/.env)'),
    row("NotebookEdit(...) governs Bash writes too", settings("default", [], ["NotebookEdit(*.ipynb)"]), "cp a.ipynb b.ipynb", 'denied by the rule "NotebookEdit(*.ipynb)" (the call writes /w/a.ipynb)'),
    row("a path rule refuses an opaque command", settings("default", [], ["Read(**/.env)"]), "source x.sh", 'denied by the rule "Read(**/.env)": the command contains `source`, which runs commands the rules cannot see, so the paths it reads cannot be known'),
  ];
}

const table: Row[] = [
  ["default mode, no rules: writes are allowed", settings("default"), Write, { file_path: "/w/a" }, ALLOWED],
  ["deny by tool name", settings("default", [], ["Write"]), Write, { file_path: "/w/a" }, 'denied by the rule "Write"'],
  ["deny by name leaves other tools alone", settings("default", [], ["Write"]), Read, { file_path: "/w/a" }, ALLOWED],
  ["deny by alias", settings("default", [], ["View"]), Read, { file_path: "/w/a" }, 'denied by the rule "View"'],
  ["Bash(rm *) denies rm", settings("default", [], ["Bash(rm *)"]), Bash, { command: "rm -rf /" }, 'denied by the rule "Bash(rm *)"'],
  ["Bash(rm *) allows ls", settings("default", [], ["Bash(rm *)"]), Bash, { command: "ls" }, ALLOWED],
  ["Bash(git *) allows git", settings("default", ["Bash(git *)"]), Bash, { command: "git status" }, ALLOWED],
  ["with an allow list, an uncovered write is refused", settings("default", ["Bash(git *)"]), Bash, { command: "npm install" }, `${NOT_COVERED} (it runs npm install)`],
  ["with an allow list, reads need no rule", settings("default", ["Bash(git *)"]), Read, { file_path: "/w/a" }, ALLOWED],
  ["a pattern is anchored: Bash(git *) does not match 'legit x'", settings("default", ["Bash(git *)"]), Bash, { command: "legit x" }, `${NOT_COVERED} (it runs legit x)`],
  ["regex characters in a rule are literal", settings("default", [], ["Bash(echo a.b)"]), Bash, { command: "echo aXb" }, ALLOWED],
  ["Read(**/.env) denies .env at the top", settings("default", [], ["Read(**/.env)"]), Read, { file_path: "/w/.env" }, 'denied by the rule "Read(**/.env)"'],
  ["Read(**/.env) denies a nested .env", settings("default", [], ["Read(**/.env)"]), Read, { file_path: "/w/app/config/.env" }, 'denied by the rule "Read(**/.env)"'],
  ["Read(**/.env) allows .env.example", settings("default", [], ["Read(**/.env)"]), Read, { file_path: "/w/.env.example" }, ALLOWED],
  ["a relative pattern matches below cwd", settings("default", [], ["Read(secrets/*)"]), Read, { file_path: "/w/secrets/key" }, 'denied by the rule "Read(secrets/*)"'],
  ["a pattern rule never matches a tool without a subject", settings("default", [], ["NoSubject(*)"]), NoSubject, {}, ALLOWED],
  ["mcp__slack denies every slack tool", settings("default", [], ["mcp__slack"]), slackRead, {}, 'denied by the rule "mcp__slack"'],
  ["mcp__slack does not reach mcp__slackbot", settings("default", [], ["mcp__slack"]), slackbotPost, {}, ALLOWED],
  ["mcp__x__y denies every tool of server x__y", settings("default", [], ["mcp__x__y"]), doubleServer, {}, 'denied by the rule "mcp__x__y"'],
  ["mcp__x does not reach server x__y", settings("default", [], ["mcp__x"]), doubleServer, {}, ALLOWED],
  ["mcp__x__y does not reach tool y__t of server x", settings("default", [], ["mcp__x__y"]), plainServerTool, {}, ALLOWED],
  ["mcp__x denies tool y__t of server x", settings("default", [], ["mcp__x"]), plainServerTool, {}, 'denied by the rule "mcp__x"'],
  ["allowing server x does not cover server x__y", settings("default", ["mcp__x"]), doubleServer, {}, NOT_COVERED],
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
  // Bash commands are read from their parse; every command needs an allow rule, any command can be denied.
  ...bashRows(),
  ["Read(...) governs Grep's path", settings("default", [], ["Read(**/.env)"]), Grep, { path: "/w/.env" }, 'denied by the rule "Read(**/.env)" (the call reads /w/.env)'],
  ["Read(...) governs Edit, whose answer shows the file", settings("default", [], ["Read(**/.env)"]), Edit, { file_path: "/w/.env" }, 'denied by the rule "Read(**/.env)" (the call reads /w/.env)'],
  ["Edit(...) governs Write", settings("default", [], ["Edit(**/.env)"]), Write, { file_path: "/w/.env" }, 'denied by the rule "Edit(**/.env)" (the call writes /w/.env)'],
  ["Edit(...) leaves Read alone", settings("default", [], ["Edit(**/.env)"]), Read, { file_path: "/w/.env" }, ALLOWED],
  ["a tool that declares no paths is refused by any path rule", settings("default", [], ["Read(**/.env)"]), Undeclared, {}, 'denied by the rule "Read(**/.env)", which governs the paths every tool reads: Undeclared does not declare the paths it touches'],
  ["a tool that declares no paths runs when no path rule applies", settings("default", [], ["Bash(rm *)"]), Undeclared, {}, ALLOWED],
  ["an MCP tool is not governed by path rules", settings("default", [], ["Read(**/.env)"]), slackRead, {}, ALLOWED],
  ["splitting is for Bash only: a path with ; is one subject", settings("default", [], ["Read(*rm*)"]), Read, { file_path: "/w/a;b" }, ALLOWED],
  ["bypass allows what no rule covers", settings("bypass", ["Bash(git *)"]), Bash, { command: "make" }, ALLOWED],
  ["bypass: deny still wins", settings("bypass", [], ["Write"]), Write, { file_path: "/w/a" }, 'denied by the rule "Write"'],
];

async function verdict(settings: PermissionSettings, tool: Tool, input: Record<string, unknown>) {
  return evaluateRules(settings, tool, input, "/w", await tool.access(input, "/w"));
}

describe("evaluateRules", () => {
  for (const [label, session, tool, input, expected] of table) {
    test(label, async () => {
      const verdict_ = await verdict(session, tool, input);
      expect(verdict_).toEqual(expected === ALLOWED ? { allowed: true } : { allowed: false, reason: expected });
    });
  }
});

describe("rule parsing and outright denial", () => {
  test("parseRule reads the target and an optional pattern; malformed rules are refused", () => {
    expect(parseRule("Write")).toEqual({ target: "Write", source: "Write" });
    expect(parseRule("Bash(git *)").pattern?.source).toBe("^git .*$");
    for (const rule of ["", "Bash(", "two words", "Bash)x("]) expect(() => parseRule(rule)).toThrow("is malformed");
  });

  test("a rule that can never match anything is refused, and the error names it", () => {
    const never: [string, string][] = [
      ["Bash()", 'Permission rule "Bash()" can never match anything: its pattern is empty (write "Bash" for the whole tool)'],
      ["Read( )", 'Permission rule "Read( )" can never match anything: its pattern is empty (write "Read" for the whole tool)'],
      ["Bash(:*)", 'Permission rule "Bash(:*)" can never match anything: it names no program'],
      ["Bash(rm:* -rf)", 'Permission rule "Bash(rm:* -rf)" can never match anything: ":*" may only end a Bash rule, as in "Bash(npm run test:*)"'],
      ["Bash(rm:*:*)", 'Permission rule "Bash(rm:*:*)" can never match anything: ":*" may only end a Bash rule, as in "Bash(npm run test:*)"'],
      ["Bash( rm *)", 'Permission rule "Bash( rm *)" can never match anything: it starts or ends with a space, which no command does'],
      ["Read(a))", 'Permission rule "Read(a))" can never match anything: its parentheses are unbalanced'],
      ["Bash(echo (x)", 'Permission rule "Bash(echo (x)" can never match anything: its parentheses are unbalanced'],
    ];
    for (const [rule, message] of never) expect(() => parseRule(rule)).toThrow(message);
    // Quoted parentheses are text, and `:*` is Bash's only: a path may hold it.
    for (const rule of ["Bash(echo ':)')", "Read(/w/a:*)", "Bash(npm run test:*)"]) expect(() => parseRule(rule)).not.toThrow();
  });

  test("Bash(PREFIX:*) is Claude Code's prefix rule: the command alone or followed by more words", async () => {
    const denyRm = settings("default", [], ["Bash(rm:*)"]);
    const allowTest = settings("default", ["Bash(npm run test:*)"]);
    const outcomes = async (session: PermissionSettings, commands: string[]) =>
      Object.fromEntries(await Promise.all(commands.map(async (command) => [command, (await verdict(session, Bash, { command })).allowed])));
    expect(await outcomes(denyRm, ["rm", "rm -rf x", "sudo rm x", "echo a && /bin/rm x", "rmdir x", "echo rm"])).toEqual({
      rm: false, "rm -rf x": false, "sudo rm x": false, "echo a && /bin/rm x": false, "rmdir x": true, "echo rm": true,
    });
    expect(await outcomes(allowTest, ["npm run test", "npm run test -- --watch", "npm run test-evil", "npm run test; rm x", "npm run testx"])).toEqual({
      "npm run test": true, "npm run test -- --watch": true, "npm run test-evil": false, "npm run test; rm x": false, "npm run testx": false,
    });
  });

  test("only rules without a pattern remove tools from the pool", () => {
    expect(isToolDeniedOutright({ deny: ["Write"] }, Write)).toBe(true);
    expect(isToolDeniedOutright({ deny: ["Bash(rm *)"] }, Bash)).toBe(false);
    expect(isToolDeniedOutright({ deny: ["mcp__slack"] }, slackPost)).toBe(true);
    expect(isToolDeniedOutright({ deny: ["mcp__slack"] }, slackbotPost)).toBe(false);
    expect(isToolDeniedOutright({ deny: ["View"] }, Read)).toBe(true);
    expect(isToolDeniedOutright({ deny: ["mcp__x__y"] }, doubleServer)).toBe(true);
    expect(isToolDeniedOutright({ deny: ["mcp__x"] }, doubleServer)).toBe(false);
    expect(isToolDeniedOutright({ deny: ["mcp__x__y"] }, plainServerTool)).toBe(false);
  });
});

describe("wrappers and path aliases a hostile client tried (each ran rm or read .env before)", () => {
  const denyRm = settings("default", [], ["Bash(rm *)"]);
  const denyEnv = settings("default", [], ["Read(**/.env)"]);
  test.each([
    ["bash -c -- SCRIPT", "bash -c -- 'rm victim.txt'", denyRm],
    ["sh -c -- SCRIPT", "sh -c -- 'rm victim.txt'", denyRm],
    ["bash -c -e SCRIPT", "bash -c -e 'rm victim.txt'", denyRm],
    ["env -S", "env -S 'rm victim.txt'", denyRm],
    ["su -c", "su -c 'rm victim.txt'", denyRm],
    ["script -qc", "script -qc 'rm victim.txt' /dev/null", denyRm],
    ["unshare", "unshare rm victim.txt", denyRm],
    ["su -c reading a secret", "su -c 'cat .env'", denyEnv],
    ["a path through /proc/self/cwd", "cat /proc/self/cwd/.env", denyEnv],
    ["a path through /dev/fd", "cat /dev/fd/3", denyEnv],
  ] as const)("%s is refused", async (_case, command, session) => {
    const result = await verdict(session, Bash, { command });
    expect(result.allowed).toBe(false);
  });

  test("plain bash -c SCRIPT is still read through (a harmless script is allowed)", async () => {
    expect(await verdict(denyRm, Bash, { command: "bash -c 'echo hi'" })).toEqual({ allowed: true });
  });
});

describe("a paced rule check (1,000 rules against a large command)", () => {
  const deny = Array.from({ length: 1000 }, (_, index) => `Bash(${"*x".repeat(400)}${index}*)`);
  const command = `echo ${"ab".repeat(30_000)} && echo ${"ba".repeat(1_000)}`;

  test("hands the thread back between slices and reaches the same verdict as the check at once", async () => {
    const input = { command };
    const access = await Bash.access(input, "/w");
    let turns = 0;
    // A clock that moves 1 ms per reading: every 4 readings is a slice.
    let clock = 0;
    const pace = { sliceMs: 4, budgetMs: 1_000_000, yieldTurn: async () => void turns++, now: () => clock++ };
    const paced = await evaluateRulesPaced(settings("default", [], deny), Bash, input, "/w", access, pace);
    expect({ paced, turns: turns > 100 }).toEqual({ paced: evaluateRules(settings("default", [], deny), Bash, input, "/w", access), turns: true });
  });

  test("past its budget the call is refused, never allowed", async () => {
    const input = { command };
    const access = await Bash.access(input, "/w");
    let clock = 0;
    const pace = { sliceMs: 1, budgetMs: 50, yieldTurn: async () => {}, now: () => (clock += 10) };
    expect(await evaluateRulesPaced(settings("default", [], deny), Bash, input, "/w", access, pace)).toEqual({
      allowed: false,
      reason: "checking the call against the session's 1000 rules took longer than its 50 ms budget",
    });
  });
});

describe("path rules over Bash when the kernel sandbox enforces them (CallAccess.kernelEnforcesPaths)", () => {
  const readEnv = settings("default", [], ["Read(**/.env)"]);
  const confined = async (command: string) => ({ ...(await Bash.access({ command }, "/w")), kernelEnforcesPaths: true as const });
  const check = async (command: string, kernel: boolean) =>
    evaluateRules(readEnv, Bash, { command }, "/w", kernel ? await confined(command) : await Bash.access({ command }, "/w"));

  test("what only may match (a glob, a variable, a path under one written earlier) is the kernel's: allowed confined, refused without", async () => {
    for (const command of ["cat src/*.ts", 'cat "$TMPDIR/t"', "git init -q repo && cd repo && echo a > f && git add f"]) {
      expect({ command, confined: (await check(command, true)).allowed, rulesOnly: (await check(command, false)).allowed }).toEqual({ command, confined: true, rulesOnly: false });
    }
  });

  test("what must match is still refused by the rules, confined or not", async () => {
    // (A path through a variable or glob is unknown as a whole, `$HOME/.env` too: the kernel's, and
    // outside the roots only a rule that names it (`Read(~/.env)`) hides it — as for any program.)
    for (const command of ["cat .env", "cat sub/.env", "grep x ./.env", "cp .env /tmp/x"]) {
      expect({ command, confined: (await check(command, true)).allowed, rulesOnly: (await check(command, false)).allowed }).toEqual({ command, confined: false, rulesOnly: false });
    }
  });

  test("an unreadable command stays refused by Bash(...) deny rules; only path rules leave it to the kernel", async () => {
    const command = "echo $'\\\\' ; rm x ; #'";
    const bashDeny = settings("default", [], ["Bash(rm *)"]);
    expect((await evaluateRules(bashDeny, Bash, { command }, "/w", await confined(command))).allowed).toBe(false);
  });
});
