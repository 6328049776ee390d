/**
 * Spellings where bash does more than the text of a command shows, found by hostile passes and
 * checked against bash (test/permissions/shell-differential.test.ts). Each answers "why this cannot
 * be read" (a reason for the message) or undefined; the walk (shell-facts.ts) makes the command
 * opaque on any answer, which no allow rule covers and every deny rule refuses.
 */
import type { SyntaxNode } from "./shell-words.ts";
import { named } from "./shell-words.ts";

/**
 * Variables whose value changes what later words run or read: the command hash (`BASH_CMDS[ls]=/bin/bash`
 * makes `ls` run bash), aliases, the search path, startup files, exported functions, prompt hooks, the
 * shell's options, and the dynamic loader's preloads. A name set any way (assignment, `printf -v`,
 * `read`, `declare`, `export`) makes every name after it mean something else.
 */
const SPECIAL_VARIABLE = /^(BASH_CMDS|BASH_ALIASES|PATH|BASH_ENV|ENV|BASH_FUNC_\w*|PROMPT_COMMAND|PS0|PS4|SHELLOPTS|BASHOPTS|CDPATH|GLOBIGNORE|EXECIGNORE|BASH_LOADABLES_PATH|BASH_XTRACEFD|HISTFILE|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|IFS)(\[|=|\+=|%%|$)/;
/** A subscript that names anything but digits: an indexed array's subscript is arithmetic, which runs a variable's `$(…)`. */
const EVALUATED_SUBSCRIPT = /\[[^\]]*[^\]0-9@*\s][^\]]*\]/;

/** Why setting this name (the text of an assignment or of a builtin's name argument) cannot be read. */
export function variableHazard(text: string): string | undefined {
  const special = SPECIAL_VARIABLE.exec(text);
  if (special) return `a change to ${special[1]}, which changes what later commands run or read`;
  const subscript = /^[A-Za-z_][A-Za-z_0-9]*(\[[^\]]*\])/.exec(text);
  if (subscript?.[1] && EVALUATED_SUBSCRIPT.test(subscript[1])) return `the array subscript ${subscript[1].slice(0, 40)} (bash evaluates it as arithmetic)`;
  return undefined;
}

/**
 * `declare -i` makes every later assignment to the name arithmetic; `-n` makes it a reference to any
 * other name (`declare -n r=BASH_CMDS; r[ls]=…`). Options of declare, typeset, local, export, readonly.
 */
export function declarationHazard(words: readonly string[]): string | undefined {
  const option = words.slice(1).find((word) => /^[-+][a-zA-Z]*[in]/.test(word));
  return option === undefined ? undefined : `\`${words[0]} ${option}\` (integer variables and name references evaluate later assignments)`;
}

/**
 * A heredoc delimiter with quotes or backslashes: bash removes the quotes (`E''OF` ends at `EOF`), the
 * grammar ends the body at the text as written (or splits `"E"OF` in two). Only the plain forms
 * `'EOF'`, `"EOF"` and `\EOF` are read; for them the end the grammar found must be the unquoted word.
 */
export function heredocHazard(node: SyntaxNode): string | undefined {
  const children = named(node);
  const start = children.find((child) => child.type === "heredoc_start");
  if (!start) return undefined;
  const text = start.text;
  const touching = children.find((child) => child !== start && child.startIndex === start.endIndex && child.type !== "heredoc_body");
  if (touching) return `a heredoc delimiter the parser split (${JSON.stringify(text.slice(0, 40))})`;
  let delimiter = text;
  if (/['"\\]/.test(text)) {
    const plain = /^'([^']*)'$|^"([^"\\$`]*)"$|^\\([^\\'"]+)$/.exec(text);
    if (!plain) return `a heredoc delimiter written in quote pieces (${JSON.stringify(text.slice(0, 40))})`;
    delimiter = plain[1] ?? plain[2] ?? plain[3] ?? "";
  }
  const end = children.find((child) => child.type === "heredoc_end");
  if (end && end.text !== delimiter) return `a heredoc whose end the parser found elsewhere (${JSON.stringify(text.slice(0, 40))})`;
  return undefined;
}

/** Descriptors a redirect may point at the terminal's names (`/dev/stdout`, `/dev/stderr`, `/dev/fd/1`). */
const OUTPUT_DESCRIPTORS: ReadonlySet<string> = new Set(["1", "2"]);

/**
 * Whether a redirect points descriptor 1 or 2 at something else than where they were (`1>&3`, `2<&4`,
 * `1<F`, `>&5`): after it, `/dev/stdout` names that file and a write to it writes the file
 * (`echo PWN 3<F 1>&3 >/dev/stdout` overwrote F).
 */
export function movesOutputDescriptor(fd: string | undefined, operator: string, target: string): boolean {
  const onto = fd ?? (operator.startsWith("<") ? "0" : "1");
  if (!OUTPUT_DESCRIPTORS.has(onto)) return false;
  if (operator === ">&" || operator === "<&") return /^\d+-?$/.test(target) && !/^[12]-?$/.test(target);
  return operator === "<" || operator === "<>";
}

/** A shell reading its script from standard input under another name. */
export const STANDARD_INPUT = /^\/(dev\/stdin|dev\/fd\/0|proc\/(self|\d+)\/fd\/0)$/;
/** Assignments that make a shell run code: its startup file, exported functions, the prompt hook. */
export const CODE_VARIABLES = /^(BASH_ENV|ENV|BASH_FUNC_[^=]*|PROMPT_COMMAND|PS0)=/;

/**
 * Builtins that read a word of theirs as a variable name or an arithmetic expression, where bash
 * evaluates a subscript's `$(…)` (checked against bash: printf -v, read, declare/typeset/local,
 * test -v), with the ones that take names the same way, and the two that run a builtin by name.
 */
export const EVALUATING_BUILTINS: ReadonlySet<string> = new Set([
  "printf", "read", "declare", "typeset", "local", "export", "readonly", "unset", "test", "[", "let",
  "mapfile", "readarray", "getopts", "wait", "shift", "return", "exit", "break", "continue", "ulimit", "builtin", "command",
]);

export const MISREAD = "a line continuation, escape or comment the parser may have read differently from bash";

/** Commands that make or move symbolic links: the path they write may be a link afterwards. */
export const LINK_MAKERS: ReadonlySet<string> = new Set(["ln", "cp", "mv", "rsync", "tar", "unzip", "cpio", "bsdtar", "git", "install", "link", "symlinks"]);

/** Builtins whose options give a variable attributes. */
export const DECLARATIONS: ReadonlySet<string> = new Set(["declare", "typeset", "local", "export", "readonly"]);

/** Redirect targets that name descriptor 1 or 2 rather than a file. */
export const OUTPUT_DEVICE = /^\/dev\/(stdout|stderr|fd\/[12])$/;

/** `<<'E'`, `<<"E"`, `<<\E`: the body is text, nothing in it expands. */
export function isQuotedHeredoc(node: SyntaxNode): boolean {
  const start = named(node).find((child) => child.type === "heredoc_start");
  return start !== undefined && /['"\\]/.test(start.text);
}
