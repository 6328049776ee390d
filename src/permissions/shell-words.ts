/**
 * One shell word of a parse tree as the rules read it: literal text where the word is static, a
 * hole where bash decides at run time (a parameter, a substitution's output, a glob, `~`). Commands
 * that run while the word expands (inside `$(...)`, `${x:-$(...)}`, `<(...)`) are handed back to the
 * caller to be checked like any other; anything this reader does not know makes the word opaque.
 */
import { HOLE, type Template, type TemplatePart } from "./star-match.ts";

/** The part of a tree-sitter node the shell reader uses (web-tree-sitter's Node fits it). */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly isMissing: boolean;
  readonly isError: boolean;
  /** Offsets in the parsed text, to see what lies between two children. */
  readonly startIndex: number;
  readonly endIndex: number;
  readonly childCount: number;
  readonly children: readonly (SyntaxNode | null)[];
  readonly namedChildren: readonly (SyntaxNode | null)[];
}

/** What reading a word needs from the walk around it. */
export interface WordContext {
  /** A statement found inside the word (a substitution's body), to be checked like the others. */
  statement(node: SyntaxNode): void;
  /** The walk cannot see what this does; the reason is for the message. */
  opaque(reason: string): void;
}

/** Characters an unquoted word cannot hold unescaped; a word holding one was misread. */
const METACHARACTERS = /[\s;&|<>()`]/;
/** Unquoted characters that make bash expand the word (globs, braces). */
const EXPANDING: ReadonlySet<string> = new Set(["*", "?", "[", "]", "{", "}"]);
/** Words that are commands or reserved words, never globs. */
const LITERAL_WORDS: ReadonlySet<string> = new Set(["[", "]", "[[", "]]", "{", "}", "!"]);
/** `${name:offset}` / `${name:offset:length}` (not `:-`, `:=`, `:+`, `:?`): the arithmetic after the colon. */
const SUBSTRING_EXPANSION = /^\$\{(?:[A-Za-z_][A-Za-z_0-9]*|[0-9]+|[@*#?$!-])(?:\[[^\]]*\])?:(?![-=+?])(.*)\}$/s;
/** Arithmetic that names no variable cannot run anything: numbers and operators only. */
const PLAIN_ARITHMETIC = /^[\s0-9+\-*/%()<>=!&|^~?:,]*$/;

export function readWord(node: SyntaxNode, context: WordContext): Template {
  const parts: TemplatePart[] = [];
  appendWord(node, context, parts, { first: true, whole: true });
  return merge(parts);
}

interface Position {
  /** Whether this piece starts the word (where `~` expands). */
  first: boolean;
  /** Whether this piece is the whole word (`[` alone is a command; inside `{a,b}` a brace expands). */
  whole: boolean;
}

function appendWord(node: SyntaxNode, context: WordContext, parts: TemplatePart[], position: Position): void {
  if (misreadsContinuation(node)) context.opaque("a line continuation, escape or comment the parser may have read differently from bash");
  switch (node.type) {
    case "word":
    case "number":
    case "extglob_pattern":
    case "special_variable_name":
      unquoted(node.text, context, parts, position);
      return;
    case "raw_string":
      parts.push(node.text.slice(1, -1));
      return;
    case "ansi_c_string":
      // The grammar ends `$'\\' ; rm f ; #'` at the last quote, bash at the second: scan as bash does.
      if (!endsAnsiCString(node.text)) context.opaque(`a $'…' string the parser may have misread (${JSON.stringify(node.text.slice(0, 40))})`);
      // Escapes ($'\x72m') are decoded by bash; a reading that decoded them wrong would match wrong.
      parts.push(node.text.includes("\\") ? HOLE : node.text.slice(2, -1));
      return;
    case "string":
      for (const child of named(node)) {
        if (child.type === "string_content") parts.push(doubleQuoted(child.text, context));
        else appendExpansion(child, context, parts);
      }
      return;
    case "concatenation":
      named(node).forEach((child, index) => appendWord(child, context, parts, { first: position.first && index === 0, whole: false }));
      return;
    default:
      appendExpansion(node, context, parts);
  }
}

/** `$x`, `${...}`, `$(...)`, `<(...)`, `$((...))`: a hole, after checking what runs inside. */
function appendExpansion(node: SyntaxNode, context: WordContext, parts: TemplatePart[]): void {
  switch (node.type) {
    case "simple_expansion":
      break;
    case "expansion":
      checkParameterExpansion(node, context);
      break;
    case "command_substitution":
    case "process_substitution":
      if (node.text.startsWith("`") && node.text.slice(1, -1).includes("\\`")) {
        context.opaque("nested backquotes");
      }
      for (const child of named(node)) context.statement(child);
      break;
    case "arithmetic_expansion":
      if (!PLAIN_ARITHMETIC.test(node.text.replace(/^\$\(\(|\)\)$|^\$\[|\]$/g, ""))) {
        context.opaque("arithmetic on variables (bash evaluates their values, which can run commands)");
      }
      break;
    case "translated_string":
    case "brace_expression":
      break;
    default:
      context.opaque(`a construct the checker does not know (${node.isNamed ? node.type : JSON.stringify(node.type)})`);
  }
  parts.push(HOLE);
}

/**
 * `${x}`, `${x:-word}`, `${#x}`, `${x%pat}`: safe, the words inside checked. Indirection (`${!x}`),
 * transformations (`${x@P}` runs the substitutions in x's value) and subscripts (`${a[$i]}`, an
 * arithmetic context) can run what no reading of the text shows.
 */
function checkParameterExpansion(node: SyntaxNode, context: WordContext): void {
  // `${PWD:y}`, `${x:1:n}`: offset and length are arithmetic, and a variable's value there runs `$(…)`.
  const substring = SUBSTRING_EXPANSION.exec(node.text);
  if (substring && !PLAIN_ARITHMETIC.test(substring[1] ?? "")) context.opaque(`the arithmetic in ${node.text.slice(0, 80)}`);
  for (const child of node.children) {
    if (!child) continue;
    if (!child.isNamed) {
      if (child.type === "!" || child.type === "@") context.opaque(`the parameter expansion ${node.text}`);
      continue;
    }
    if (child.type === "subscript") {
      const index = named(child)[1];
      if (!index || !/^(@|\*|[0-9]+)$/.test(index.text)) context.opaque(`the array subscript in ${node.text}`);
    } else if (child.type === "regex") {
      // The parser keeps a pattern as text, but bash expands `$(...)` inside it.
      if (/[$`]/.test(child.text)) context.opaque(`the pattern in ${node.text}`);
    } else if (child.type !== "variable_name" && child.type !== "special_variable_name") {
      readWord(child, context);
    }
  }
}

/** Backslashes quote the next character; expanding characters and a leading `~` become holes. */
function unquoted(text: string, context: WordContext, parts: TemplatePart[], { first, whole }: Position): void {
  if (whole && LITERAL_WORDS.has(text)) {
    parts.push(text);
    return;
  }
  let literal = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index] ?? "";
    if (char === "\\") {
      // A backslash-newline is deleted; any other escaped character is itself.
      if (text[index + 1] !== "\n") literal += text[index + 1] ?? "";
      index++;
    } else if (METACHARACTERS.test(char)) {
      context.opaque(`a word the parser may have misread (${JSON.stringify(text.slice(0, 80))})`);
      literal += char;
    } else if (EXPANDING.has(char) || (char === "~" && first && index === 0)) {
      parts.push(literal, HOLE);
      literal = "";
      if (char === "~") while (index + 1 < text.length && text[index + 1] !== "/") index++;
    } else {
      literal += char;
    }
  }
  parts.push(literal);
}

/** Inside double quotes a backslash quotes only `$`, `` ` ``, `"`, `\` and a newline. */
function doubleQuoted(text: string, context: WordContext): string {
  if (/(^|[^\\])`/.test(text)) context.opaque("a backquote the parser left inside a string");
  return text.replace(/\\([$`"\\\n])/g, (_, char: string) => (char === "\n" ? "" : char));
}

/** Whether `$'…'` ends where bash ends it: a backslash escapes the next character, the first bare `'` closes. */
function endsAnsiCString(text: string): boolean {
  if (!text.startsWith("$'") || text.length < 3 || !text.endsWith("'")) return false;
  for (let index = 2; index < text.length - 1; index++) {
    if (text[index] === "\\") index++;
    else if (text[index] === "'") return false;
  }
  // The last quote must not be escaped by a backslash counted above.
  let backslashes = 0;
  for (let index = text.length - 2; index >= 2 && text[index] === "\\"; index--) backslashes++;
  return backslashes % 2 === 0;
}

/** Parts of one word: whatever lies between their children is inside the word. */
const WORD_LEVEL: ReadonlySet<string> = new Set(["variable_assignment", "concatenation", "expansion", "subscript"]);

/** Children of one node (words of one command, commands of one list) read; a command with more is opaque. */
export const MAX_CHILDREN = 1_000;
/** Nodes whose text is their own: what lies between their children is content, not a gap the grammar skipped. */
const TEXT_NODES: ReadonlySet<string> = new Set(["string", "raw_string", "ansi_c_string", "translated_string", "heredoc_body", "heredoc_content", "comment", "regex", "word", "string_content"]);
/** Tokens after which a `#` starts a comment in bash. */
const BEFORE_COMMENT: ReadonlySet<string> = new Set([";", "&", "|", "&&", "||", "|&", "(", ")", ";;", ";&", ";;&", "{", "}", "\n", "do", "then", "else"]);

/**
 * Where tree-sitter-bash and bash split the text differently:
 * - line continuations (backslash-newline, which bash deletes before it reads anything): `r\<newline>m`
 *   becomes two words where bash sees `rm`, and `a=\<newline> rm f` assigns `rm` where bash runs
 *   `rm f`. Between two parts of one word only continuations may stand; between two words, not only
 *   continuations;
 * - any other backslash the grammar skipped between two children (`echo a \ #;rm f`: bash reads an
 *   escaped space and the word ` #;rm`, so `;` ends the command; `<<<\ <newline>rm f`): whatever bash
 *   made of it, the parse did not see it;
 * - a `#` touching the word before it, which bash keeps in that word (`a\ #x` is one word), read as
 *   a comment.
 */
export function misreadsContinuation(node: SyntaxNode): boolean {
  // Each child's offsets cost a call into the parser: past this many the node is not checked (so is opaque).
  if (node.childCount > MAX_CHILDREN) return true;
  const children = node.children;
  const wordLevel = WORD_LEVEL.has(node.type);
  const textNode = TEXT_NODES.has(node.type);
  // A node's text is made anew at each read (from the parser's input): read it once.
  let text: string | undefined;
  for (let index = 1; index < children.length; index++) {
    const before = children[index - 1];
    const after = children[index];
    if (!before || !after) continue;
    if (after.type === "comment" && after.startIndex === before.endIndex && (before.isNamed || !BEFORE_COMMENT.has(before.type))) return true;
    if (after.startIndex === before.endIndex) continue;
    text ??= node.text;
    const gap = text.slice(before.endIndex - node.startIndex, after.startIndex - node.startIndex);
    if (!textNode && /\\(?!\r?\n)/.test(gap)) return true;
    if (!gap.includes("\\\n") && !gap.includes("\\\r\n")) continue;
    const onlyContinuations = /^(\\\r?\n)+$/.test(gap);
    if (wordLevel ? !onlyContinuations : onlyContinuations && before.isNamed && after.isNamed) return true;
  }
  return false;
}

export function named(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((child): child is SyntaxNode => child !== null);
}

/** Adjacent literals joined, runs of holes folded into one, empty literals dropped. */
function merge(parts: readonly TemplatePart[]): Template {
  const out: TemplatePart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (part === "") continue;
    if (part === HOLE && last === HOLE) continue;
    if (typeof part === "string" && typeof last === "string") out[out.length - 1] = last + part;
    else out.push(part);
  }
  return out;
}

/** A static word as bash would quote it back, so a rule sees one spelling of each argv. */
export function renderWord(word: Template): Template {
  if (word.length === 0) return ["''"];
  if (word.length === 1 && typeof word[0] === "string") {
    const text = word[0];
    return [/^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`];
  }
  return word;
}

/** Words joined by single spaces, as a rule reads a command. */
export function joinWords(words: readonly Template[]): Template {
  const parts: TemplatePart[] = [];
  words.forEach((word, index) => {
    if (index > 0) parts.push(" ");
    parts.push(...word);
  });
  return parts;
}
