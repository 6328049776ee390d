/** splitShellCommand as a table: the simple commands a command line runs, and when it cannot be read statically. */
import { describe, expect, test } from "bun:test";
import { splitShellCommand, type SplitCommand } from "../../src/permissions/shell-command.ts";

const table: [command: string, expected: SplitCommand][] = [
  ["git status", { parts: ["git status"] }],
  ["  git status  ", { parts: ["git status"] }],
  ["git status && rm -rf x", { parts: ["git status", "rm -rf x"] }],
  ["a || b; c | d |& e & f", { parts: ["a", "b", "c", "d", "e", "f"] }],
  ["a\nb\n\nc", { parts: ["a", "b", "c"] }],
  ["(cd x && make) ; echo done", { parts: ["cd x", "make", "echo done"] }],
  ["echo 'a && b' \"c; d\"", { parts: ["echo 'a && b' \"c; d\""] }],
  ["echo a\\;b", { parts: ["echo a\\;b"] }],
  ["echo a \\\n  b", { parts: ["echo a   b"] }],
  ["git status # && rm -rf x", { parts: ["git status"] }],
  ["echo a#b", { parts: ["echo a#b"] }],
  ["make 2>&1 | tee", { parts: ["make 2>&1", "tee"] }],
  ["make >/dev/null 2>&1", { parts: ["make >/dev/null 2>&1"] }],
  ["make &>/dev/null", { parts: ["make &>/dev/null"] }],
  ["make >&2", { parts: ["make >&2"] }],
  ["make > out.txt", { parts: ["make > out.txt"], unsafe: "an output redirection to a file" }],
  ["make >> out.txt", { parts: ["make >> out.txt"], unsafe: "an output redirection to a file" }],
  ["make >& out.txt", { parts: ["make >& out.txt"], unsafe: "an output redirection to a file" }],
  ["sort < in.txt", { parts: ["sort < in.txt"] }],
  ["echo $(date) x", { parts: ["date", "echo $(date) x"], unsafe: "a command substitution $(...)" }],
  ["echo $(a $(b) && c)", { parts: ["b", "a $(b)", "c", "echo $(a $(b) && c)"], unsafe: "a command substitution $(...)" }],
  ["echo \"$(rm x)\"", { parts: ["rm x", "echo \"$(rm x)\""], unsafe: "a command substitution $(...)" }],
  ["echo '$(rm x)'", { parts: ["echo '$(rm x)'"] }],
  ["echo `rm x`", { parts: ["rm x", "echo `rm x`"], unsafe: "a command substitution `...`" }],
  ["diff <(ls a) <(ls b)", { parts: ["ls a", "ls b", "diff <(ls a) <(ls b)"], unsafe: "a process substitution <(...)" }],
  ["echo 'unterminated", { parts: ["echo 'unterminated"], unsafe: "unbalanced quotes" }],
  ["echo $(unclosed", { parts: ["unclosed", "echo $(unclosed"], unsafe: "a command substitution $(...)" }],
  ["", { parts: [] }],
];

describe("splitShellCommand", () => {
  for (const [command, expected] of table) {
    test(JSON.stringify(command), () => {
      expect(splitShellCommand(command)).toEqual(expected);
    });
  }
});
