/**
 * What the Bash reader takes from a parse: the commands a rule sees, the paths, and why a command
 * cannot be covered or seen through. Driven through the real grammar (tree-sitter-bash).
 */
import { describe, expect, test } from "bun:test";
import { ShellParser, MAX_SHELL_COMMAND_CHARS } from "../../src/builtin/shell-parser.ts";
import { HOLE, showTemplate } from "../../src/permissions/star-match.ts";

const parser = new ShellParser();

async function read(command: string) {
  const facts = await parser.read(command, "/w");
  return {
    commands: facts.commands.map((command) => showTemplate(command.reading)),
    ...(facts.unsafe !== undefined && { unsafe: facts.unsafe }),
    ...(facts.opaque !== undefined && { opaque: facts.opaque }),
  };
}

const commands: [command: string, expected: Awaited<ReturnType<typeof read>>][] = [
  ["git status", { commands: ["git status"] }],
  ["git status && rm -rf x", { commands: ["git status", "rm -rf x"] }],
  ["a || b; c | d |& e & f", { commands: ["a", "b", "c", "d", "e", "f"] }],
  ["(cd x && make) ; echo done", { commands: ["cd x", "make", "echo done"] }],
  ["echo 'a && b' \"c; d\"", { commands: ["echo 'a && b' 'c; d'"] }],
  ["echo a\\;b", { commands: ["echo 'a;b'"] }],
  ["git status # && rm -rf x", { commands: ["git status"] }],
  ["'g'\"it\" st\\atus", { commands: ["git status"] }],
  ["echo $'a\\'b' ; rm x", { commands: ["echo …", "rm x"] }],
  ["echo $'plain'", { commands: ["echo plain"] }],
  ["echo ${x:-$(rm -f f)}", { commands: ["rm -f f", "echo …"] }],
  ["diff <(ls a) >(wc -l)", { commands: ["ls a", "wc -l", "diff … …"] }],
  ["if a; then b; elif c; then d; else e; fi", { commands: ["a", "b", "c", "d", "e"] }],
  ["while a; do b; done; until c; do d; done", { commands: ["a", "b", "c", "d"] }],
  ["for i in x $(y); do z \"$i\"; done", { commands: ["y", "z …"] }],
  ["case $x in a) b;; *) c;; esac", { commands: ["b", "c"] }],
  ["! a | b", { commands: ["a", "b"] }],
  ["{ a; b; } > /dev/null 2>&1", { commands: ["a", "b"] }],
  ["make > out.txt", { commands: ["make"], unsafe: "an output redirection to a file" }],
  ["make >& out.txt", { commands: ["make"], unsafe: "an output redirection to a file" }],
  ["make >&1file", { commands: ["make"], unsafe: "an output redirection to a file" }],
  ["make 2>&1 >&2 <&0", { commands: ["make"] }],
  ["sort < in.txt", { commands: ["sort"] }],
  ["cat <<EOF\n$(a) ${b}\nEOF", { commands: ["cat", "a"] }],
  ["X=1 Y='a b' env", { commands: ["X=1 Y='a b' env"] }],
  ["x=$(a) y=2", { commands: ["a", "x=… y=2"] }],
  ["export A=$(b) C", { commands: ["b", "export A=… C"] }],
  ["f() { a; }; f", { commands: ["a", "f"], unsafe: "a function definition" }],
  ["bash -lc 'a; b'", { commands: ["a", "b", "bash -lc 'a; b'"] }],
  ["eval 'a && b'", { commands: ["a", "b", "eval 'a && b'"] }],
  ["[[ -f x && $y == z ]] && a", { commands: ["a"] }],
  ["((1 + 2)) && a", { commands: ["a"] }],
  ["echo $((1 + 2))", { commands: ["echo …"] }],
  ["ls *.ts ~/x", { commands: ["ls ….ts …/x"] }],
  ["echo {a,b} x{1..3}", { commands: ["echo …a,b… x…"] }],
  ["[ -f x ] && a", { commands: ["a"] }],
  ["test -f x && a", { commands: ["test -f x", "a"] }],
  ["$cmd x", { commands: [], opaque: "a command name known only at run time" }],
  ["$(which rm) x", { commands: ["which rm"], opaque: "a command name known only at run time" }],
  ["r* x", { commands: [], opaque: "a command name known only at run time" }],
  ["echo x | sh", { commands: ["echo x", "sh"], opaque: "`sh` reading commands from its input" }],
  ["bash -c \"$x\"", { commands: ["bash -c …"], opaque: "`bash -c` with a script known only at run time" }],
  ["bash $x 'rm f'", { commands: ["bash … 'rm f'"], opaque: "`bash` with arguments known only at run time" }],
  ["eval $x", { commands: ["eval …"], opaque: "`eval` of text known only at run time" }],
  ["source ./env.sh", { commands: ["source ./env.sh"], opaque: "`source`, which runs commands the rules cannot see" }],
  [". ./env.sh", { commands: [". ./env.sh"], opaque: "`.`, which runs commands the rules cannot see" }],
  ["alias ls='rm -rf x'", { commands: ["alias 'ls=rm -rf x'"], opaque: "`alias`, which runs commands the rules cannot see" }],
  ["trap 'rm x' EXIT", { commands: ["trap 'rm x' EXIT"], opaque: "`trap`, which runs commands the rules cannot see" }],
  ["echo $((x))", { commands: ["echo …"], opaque: "arithmetic on variables (bash evaluates their values, which can run commands)" }],
  ["((x++))", { commands: [], opaque: "arithmetic on variables (bash evaluates their values, which can run commands)" }],
  ["[[ $x -eq 1 ]]", { commands: [], opaque: "the arithmetic test -eq (bash evaluates its operands)" }],
  ["echo ${!x}", { commands: ["echo …"], opaque: "the parameter expansion ${!x}" }],
  ["echo ${x@P}", { commands: ["echo …"], opaque: "the parameter expansion ${x@P}" }],
  ["echo ${a[$i]}", { commands: ["echo …"], opaque: "the array subscript in ${a[$i]}" }],
  ["echo ${x/$(rm f)/y}", { commands: ["rm f", "echo …"] }],
  ["echo `echo \\`rm x\\``", { commands: ["echo '`rm' 'x`'", "echo …"], opaque: "nested backquotes" }],
  ["echo ${x-`rm f`}", { commands: ["echo …"], opaque: 'a word the parser may have misread ("`rm f`")' }],
  ["r\\\nm f", { commands: ["r m f"], opaque: "a line continuation, escape or comment the parser may have read differently from bash" }],
  ["git \\\n  status", { commands: ["git status"] }],
  ["cat <<E\n`rm f`\nE", { commands: ["cat"], opaque: "a substitution the parser left as text in a heredoc" }],
  ["cat <<'E'\n`rm f`\nE", { commands: ["cat"] }],
  ["echo (", { commands: ["echo"], opaque: 'a syntax error near "("' }],
  ["echo 'unterminated", { commands: ["echo"], opaque: "a syntax error near \" 'unterminated\"" }],
  ["for ((i=0; i<3; i++)); do a; done", { commands: [], opaque: "a construct the checker does not know (c_style_for_statement)" }],
  ["bash -c 'bash -c \"bash -c \\\"bash -c a\\\"\"'", { commands: ["bash -c a", "bash -c 'bash -c a'", "bash -c 'bash -c \"bash -c a\"'", "bash -c 'bash -c \"bash -c \\\"bash -c a\\\"\"'"], opaque: "scripts nested too deeply to check" }],
];

describe("readShellFacts over tree-sitter-bash", () => {
  for (const [command, expected] of commands) {
    test(JSON.stringify(command), async () => {
      expect(await read(command)).toEqual(expected);
    });
  }

  test("paths: arguments, --opt=value, redirects; read-only commands write nothing; echo names no path", async () => {
    const facts = await parser.read("cat a ../b --file=c < d > e; cp f g; echo h; grep -r k", "/w/sub");
    expect(facts.reads.map(showTemplate)).toEqual(["/w/sub/a", "/w/b", "/w/sub/--file=c", "/w/sub/c", "/w/sub/d", "/w/sub/f", "/w/sub/g", "/w/sub/-r", "/w/sub/k", "/w/sub/-r/…", "/w/sub/k/…", "/w/sub/…"]);
    expect(facts.writes.map(showTemplate)).toEqual(["/w/sub/e", "/w/sub/f", "/w/sub/g"]);
  });

  test("after a cd, relative paths start unknown", async () => {
    const facts = await parser.read("cat a; cd /; cat w/.env /abs", "/w");
    expect(facts.reads.map(showTemplate)).toEqual(["/w/a", "…", "/abs"]);
  });

  test("a hole makes the whole path unknown: it may climb with .. or spell /proc/self/root", async () => {
    const facts = await parser.read("cat $d/../.env ./x/./y /pro?/self/root/w/.env /w/$v", "/w");
    expect(facts.reads).toEqual([[HOLE], ["/w/x/y"], [HOLE], [HOLE]]);
  });

  test("a command over the length limit, or one nested past the bounds, is opaque", async () => {
    expect((await parser.read(`echo ${"a".repeat(MAX_SHELL_COMMAND_CHARS)}`, "/w")).opaque).toBe(`a command longer than ${MAX_SHELL_COMMAND_CHARS} characters`);
    const deep = `echo ${"$(".repeat(400)}x${")".repeat(400)}`;
    expect((await parser.read(deep, "/w")).opaque).toMatch(/too large, too deeply nested or too slow|took more than 50 ms to parse/);
  });
});

describe("quoted text bash evaluates again is opaque", () => {
  // bash evaluates a variable name's array subscript (and an integer variable's value, and PS4)
  // arithmetically, and a `$(…)` or backquote there runs: none of these shows `rm` to a parse.
  const evaluatedLater = [
    "printf -v 'a[$(rm victim)]' x",
    "read 'a[$(rm victim)]' <<< x",
    "test -v 'a[$(rm victim)]'",
    "[ -v 'a[$(rm victim)]' ]",
    "[[ -v 'a[$(rm victim)]' ]]",
    "declare 'a[$(rm victim)]=1'",
    "typeset 'a[`rm victim`]=1'",
    "declare -a a='($(rm victim))'",
    "declare -i n; n='a[$(rm victim)]'",
    "declare -n r='a[$(rm victim)]'; echo $r",
    "PS4='$(rm victim)'; set -x; echo hi",
    "export PROMPT_COMMAND='`rm victim`'",
  ];
  for (const command of evaluatedLater) {
    test(JSON.stringify(command), async () => {
      expect((await parser.read(command, "/w")).opaque).toBeDefined();
    });
  }

  test("quoted text without substitution syntax stays readable", async () => {
    expect(await read("printf -v 'a[1]' x; echo '$HOME and ${x}'")).toEqual({ commands: ["printf -v 'a[1]' x", "echo '$HOME and ${x}'"] });
  });
});
