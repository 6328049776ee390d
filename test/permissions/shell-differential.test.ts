/**
 * The Bash reader against bash itself: each command runs under a real `bash -c` whose PATH holds a
 * stand-in `rm` that only logs. Whenever bash ran `rm`, the deny rule `Bash(rm *)` must have denied
 * the command, and an allow list of `Bash(echo *)` alone must not have covered it (refusing more
 * than bash runs is allowed; missing a run is the bug this hunts). Likewise for files: whenever bash
 * showed a secret file or changed a victim file, exact `Read(…)` / `Edit(…)` deny rules must refuse.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createBashTool } from "../../src/builtin/bash.ts";
import { evaluateRules } from "../../src/permissions/rules.ts";

setDefaultTimeout(60_000);

const sandbox = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT ?? "/tmp", "shell-diff-"));
const bin = join(sandbox, "bin");
mkdirSync(bin);
writeFileSync(join(bin, "rm"), `#!/bin/sh\necho "rm $*" >> "$RMLOG"\n`);
chmodSync(join(bin, "rm"), 0o755);
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

const bash = createBashTool();
const denyRm = { mode: "default" as const, allow: [], deny: ["Bash(rm *)"] };
const allowEcho = { mode: "default" as const, allow: ["Bash(echo *)"], deny: [] };

/** Pieces that have fooled shell scanners: quoting, escapes, expansions, comments, heredocs. */
const PIECES = [
  "$'a\\'b'", "'a\\'", '"a\\"b"', "\\'", '$"x"', "#", "\\#", "a#b", "${x:-'}'}", "${x:-\"}\"}", "$(echo ')')",
  "`echo \\`echo x\\``", "$'\\x27'", "'\"'", '"\'"', "${x#'}'}", "$((1))", "{a,b}", "a\\\nb", "\\;", "';'", '";"',
  "$'\\n'", "$'\\\\'", "x=$'\\''", "${#x}", "${x:+$'\\''}", "\"${x:-'}\"", "\\$(", "'$('", "$(( 2 ))",
];
const FORMS = [
  (piece: string) => `echo ${piece} ; rm f`,
  (piece: string) => `echo ${piece} rm f`,
  (piece: string) => `echo ${piece}\nrm f`,
  (piece: string) => `echo ${piece} $(rm f)`,
  (piece: string) => `echo "${piece}" && rm f`,
  (piece: string) => `echo ${piece} \`rm f\``,
  (piece: string) => `echo ${piece} | rm f`,
  (piece: string) => `x=${piece} rm f`,
];
const ISSUE_23 = [
  // Issue 23's spellings: where the grammar splits text differently from bash (an escape before `#`,
  // a `$'…'` ending early, a heredoc delimiter in quote pieces, an escaped space ending a herestring)…
  "echo $'\\\\' ; rm f ; #'", "echo a \\ #;rm f", "echo a\\ #;rm f", "cat <<E''OF\nEOF\nrm f\nE''OF", "cat <<\"E\"OF\nEOF\nrm f\nE\"OF\"",
  "echo x <<<\\ \nrm f", "echo x <<<\\\t\nrm f",
  // …names bash looks up somewhere the text does not show (the command hash, aliases, arithmetic)…
  "printf -v 'BASH_CMDS[ls]' %s \"$PWD/bin/rm\"; ls f", "BASH_CMDS[ls]=$PWD/bin/rm; ls f", "shopt -s expand_aliases\nBASH_ALIASES[x]=rm\nx f",
  "read 'BASH_CMDS[ls]' <<< \"$PWD/bin/rm\"; ls f", "read y <<< 'a[$(rm f)]'; a[y]=1", "read y <<< 'a[$(rm f)]'; echo ${PWD:y}",
  "read y <<< 'a[$(rm f)]'; echo ${PWD:0:y}", "declare -i x; read y <<< 'a[$(rm f)]'; x=y", "read y <<< 'a[$(rm f)]'; printf -v 'a[y]' x",
  // …and shells and runners under other spellings.
  "bash -Cc 'rm f'", "sh -Ec 'rm f'", "bash -xc 'rm f'", "rbash -c 'rm f'", "ssh-agent rm f",
];
const EXTRA = [
  "echo ${x:-$(rm f)}", 'echo "${x:-$(rm f)}"', "echo ${x-`rm f`}", "cat <<E\n$(rm f)\nE", "cat <<'E'\n$(rm f)\nE",
  "cat <<E\n`rm f`\nE", "eval 'rm f'", "eval \"rm\" f", "bash -c 'rm f'", "sh -ec 'rm f'", "echo rm f | bash", "bash <<< 'rm f'",
  "f() { rm f; }; f", "f() ( rm f ); f", "if true; then rm f; fi", "for i in 1; do rm f; done", "case x in x) rm f;; esac",
  "while false; do :; done; rm f", "true && rm f", "false || rm f", "! rm f", "{ rm f; }", "(rm f)", "echo $(echo $(rm f))",
  "a=rm; $a f", "${a:-rm} f", "r\\m f", "'r'm f", "\"r\"m f", "command rm f", "env rm f", "xargs rm <<< f", "nice -n 1 rm f",
  "timeout 5 rm f", "exec rm f", "builtin eval rm f", "x='a[$(rm f)]'; echo $((x))", "x='a[$(rm f)]'; [[ $x -eq 0 ]]",
  "x='$(rm f)'; echo ${x@P}", "echo ${x/$(rm f)/y}", "diff <(rm f) /dev/null", "echo >(rm f)", "time rm f", "coproc rm f",
  "alias e='rm f'\ne", "r\\\nm f", "echo $(r\\\nm f)", "x=a\\\nb rm f", "a=\\\n rm f", "x=-c; bash $x 'rm f'", "bash -s <<< 'rm f'", "cat <<E\n$[1] `rm f`\nE", "cat <<E\n${x:-$(rm f)}\nE", "trap 'rm f' EXIT", "source /dev/stdin <<< 'rm f'", ". <(echo rm f)", "echo x; exec 3<&0; rm f",
  // Quoted substitutions bash evaluates later, in a variable name's subscript, an integer or PS4.
  "printf -v 'a[$(rm f)]' x", "read 'a[$(rm f)]' <<< x", "test -v 'a[$(rm f)]'", "[ -v 'a[$(rm f)]' ]", "[[ -v 'a[$(rm f)]' ]]",
  "declare 'a[$(rm f)]=1'", "typeset 'a[`rm f`]=1'", "declare -a a='($(rm f))'", "declare -i n; n='a[$(rm f)]'",
  "declare -n r='a[$(rm f)]'; echo $r", "PS4='$(rm f)'; set -x; echo hi", "unset 'a[$(rm f)]'", "let 'a[$(rm f)]=1'",
  // Programs that run their arguments, and a wrapper given the program's path.
  "/lib64/ld-linux-x86-64.so.2 /bin/rm f", "x86_64 rm f", "i386 rm f", "linux32 rm f", "linux64 rm f", "setarch x86_64 rm f",
  "prlimit --nofile=100 rm f", "choom -n 0 -- rm f", "setpriv rm f", "capsh -- -c 'rm f'", "nice -n 1 /bin/rm f", "timeout 5 /usr/bin/rm f",
  "mapfile -C 'rm f' -c 1 <<< x", "readarray -C 'rm f' -c 1 <<< x", "mapfile -tC 'rm f' -c 1 a <<< x", "eval -- 'rm f'", "eval -- rm f",
  // A shell reading the request's own text as its script, and variables that make a shell run code.
  "bash 0<<<'rm f'", "bash 0< <(echo rm f)", "bash /dev/stdin <<< 'rm f'", "sh /dev/fd/0 <<< 'rm f'", "bash - <<< 'rm f'",
  "BASH_ENV=/dev/stdin bash -c true <<< 'rm f'", "BASH_ENV=<(echo 'rm f') bash -c true", "env 'BASH_FUNC_echo%%=() { rm f; }' bash -c echo",
  "flock /tmp/lock -c 'rm f'", "logsave /dev/null rm f", "perf stat -o /dev/null rm f",
  ...ISSUE_23, "pyenv exec rm f",
];

const corpus = [...PIECES.flatMap((piece) => FORMS.map((form) => form(piece))), ...EXTRA];

/** Random command lines from pieces that mislead readers of bash; seeded, so every run is the same. */
function generated(count: number, seed: number): string[] {
  const pieces = ["echo", "x=1", "\\\n", "$'\\''", "'a'", '"a"', "\\'", "#", "\\#", "$(", ")", "`", "{", "}", "(", ";", "\n", "&&", "||",
    "|", "&", "${x:-", "<<E\n", "\nE\n", "<<<", "$((", "))", "[[", "]]", "a=", "eval", "bash -c", "\\", '"', "'", "$", "rm f", "rm f", "rm f"];
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  return Array.from({ length: count }, () => {
    let command = "";
    const length = 2 + Math.floor(random() * 6);
    for (let index = 0; index < length; index++) command += pieces[Math.floor(random() * pieces.length)] + (random() < 0.6 ? " " : "");
    return command;
  });
}

let runs = 0;

async function ranRm(command: string): Promise<boolean> {
  // A log per run: a job left in the background must not be counted against the next command.
  const log = join(sandbox, `rm-${runs++}.log`);
  const child = Bun.spawn(["bash", "-c", command], {
    cwd: sandbox,
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: sandbox, RMLOG: log },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await child.exited;
  clearTimeout(timer);
  return existsSync(log) && readFileSync(log, "utf8").includes("rm f");
}

async function misses(commands: readonly string[]): Promise<{ ran: number; missed: string[] }> {
  const missed: string[] = [];
  let ran = 0;
  for (const command of commands) {
    if (!(await ranRm(command))) continue;
    ran++;
    const input = { command };
    const access = await bash.access(input, sandbox);
    if (evaluateRules(denyRm, bash, input, sandbox, access).allowed) missed.push(`not denied: ${command}`);
    if (evaluateRules(allowEcho, bash, input, sandbox, access).allowed) missed.push(`covered by Bash(echo *): ${command}`);
  }
  return { ran, missed };
}

/** Runs a command in a fresh directory holding `.env` (a secret) and `victim`; reports what bash read and wrote. */
async function touched(command: (dir: string) => string): Promise<{ dir: string; text: string; read: boolean; wrote: boolean }> {
  const dir = join(sandbox, `files-${runs++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, ".env"), "SECRET-7f3\n");
  writeFileSync(join(dir, "victim"), "keep\n");
  const text = command(dir);
  const child = Bun.spawn(["bash", "-c", text], { cwd: dir, env: { PATH: "/usr/bin:/bin", HOME: dir }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  const output = (await new Response(child.stdout).text()) + (await new Response(child.stderr).text());
  await child.exited;
  clearTimeout(timer);
  return { dir, text, read: output.includes("SECRET-7f3"), wrote: readFileSync(join(dir, "victim"), "utf8") !== "keep\n" };
}

/** Issue 23's file spellings: options naming input files, globs and links through /proc, descriptors moved. */
const READS: ((dir: string) => string)[] = [
  () => "date -f .env", () => "date --file=.env", () => "xargs -a.env echo", () => "xargs -a .env echo", () => "file -f.env", () => "file -f .env",
  (dir) => `cat /pro?/self/root${dir}/.env`, () => "cat /pro?/self/cwd/.env", () => "cat /*/self/cwd/.env", () => "cat .en?", () => "cat .e*",
  () => "ln -s . l; cat l/.env", () => "ln -s .env l; cat l", () => "cat < .en?", () => "d=.e; cat ${d}nv", () => "cd /proc/self/cwd && cat .env",
];
const WRITES: ((dir: string) => string)[] = [
  () => "echo PWN 3<victim 1>&3 >/dev/stdout", () => "echo PWN 3<victim 1>&3 >/dev/fd/1", () => "exec 3<victim; exec 1>&3; echo PWN >/dev/stdout",
  () => "echo PWN 3<victim 2>&3 2>/dev/stderr", () => "echo PWN >vict?m", () => "ln -s victim l; echo PWN > l", () => "echo PWN | tee vic*",
];

describe("Read(…) and Edit(…) deny rules against what bash reads and writes", () => {
  test(`every command (${READS.length + WRITES.length}) that shows .env or changes victim is denied by an exact path rule`, async () => {
    const missed: string[] = [];
    let effective = 0;
    for (const command of [...READS, ...WRITES]) {
      const { dir, text, read, wrote } = await touched(command);
      if (!read && !wrote) continue;
      effective++;
      const settings = { mode: "default" as const, allow: [], deny: [`Read(${dir}/.env)`, `Edit(${dir}/victim)`] };
      const input = { command: text };
      if (evaluateRules(settings, bash, input, dir, await bash.access(input, dir)).allowed) missed.push(`${read ? "read" : "wrote"}: ${text}`);
    }
    expect(missed).toEqual([]);
    // Each spelling must really reach the file under bash, or the test proves nothing.
    expect(effective).toBe(READS.length + WRITES.length);
  });
});

describe("Bash(rm *) against what bash runs", () => {
  test(`every command of the corpus (${corpus.length}) that runs rm f is denied, and never covered by Bash(echo *)`, async () => {
    const { ran, missed } = await misses(corpus);
    expect(missed).toEqual([]);
    // The corpus must exercise the rule: most of it does run rm.
    expect(ran).toBeGreaterThan(corpus.length / 2);
  });

  test(`each of issue 23's spellings (${ISSUE_23.length}) runs rm f under bash`, async () => {
    const ran: string[] = [];
    for (const command of ISSUE_23) if (await ranRm(command)) ran.push(command);
    expect(ran).toEqual(ISSUE_23);
  });

  test("so is every generated command that runs rm f (1,000, seeded)", async () => {
    const { ran, missed } = await misses(generated(1000, 11));
    expect(missed).toEqual([]);
    expect(ran).toBeGreaterThan(20);
  });
});
