/**
 * The grammar of a permission rule, as clients and configs write it: `Tool`, `mcp__server`, or
 * `Tool(pattern)`, and for Bash Claude Code's prefix form `Bash(npm run test:*)` (the command `npm run
 * test`, alone or with more words). It is part of the protocol (what a client may send); what a rule
 * means is src/permissions/'s, which reads rules with this same grammar.
 *
 * A rule that can never match anything is refused where it enters (config load, session open) with
 * the rule named: an empty pattern, unbalanced parentheses, a Bash pattern with no program, with `:*`
 * anywhere but at its end, or with a space at either end (a command's reading never has one).
 */
export const PERMISSION_RULE_SYNTAX = /^([a-zA-Z0-9_-]+)(?:\((.*)\))?$/s;

/** Bounds a rule: longer ones are not rules anyone writes, and matching costs their length. */
export const MAX_RULE_CHARS = 1000;
/** Bounds a session's allow and deny lists each: every rule is matched against every command of a call. */
export const MAX_SESSION_RULES = 1000;

/** Tools whose pattern is a shell command (read from its parse), where `:*` ends a prefix rule. */
export const SHELL_RULE_TOOLS: ReadonlySet<string> = new Set(["Bash"]);
/** Claude Code's prefix marker: `Bash(rm:*)` is `rm` alone or followed by a space and anything. */
export const PREFIX_MARKER = ":*";

/** Why a rule is refused, or undefined when it has the grammar and can match something. */
export function permissionRuleProblem(rule: string): string | undefined {
  const named = JSON.stringify(rule.slice(0, 80));
  const match = rule.length <= MAX_RULE_CHARS ? PERMISSION_RULE_SYNTAX.exec(rule.trim()) : null;
  if (!match?.[1]) return `Permission rule ${named} is malformed: use "Tool", "mcp__server", "Tool(pattern)" or "Bash(command:*)", at most ${MAX_RULE_CHARS} characters`;
  const [, tool, pattern] = match;
  if (pattern === undefined) return undefined;
  const never = `Permission rule ${named} can never match anything:`;
  if (pattern.trim() === "") return `${never} its pattern is empty (write "${tool}" for the whole tool)`;
  if (!balanced(pattern)) return `${never} its parentheses are unbalanced`;
  if (!SHELL_RULE_TOOLS.has(tool)) return undefined;
  const command = pattern.endsWith(PREFIX_MARKER) ? pattern.slice(0, -PREFIX_MARKER.length) : pattern;
  if (command.includes(PREFIX_MARKER)) return `${never} ":*" may only end a ${tool} rule, as in "${tool}(npm run test:*)"`;
  if (command.trim() === "") return `${never} it names no program`;
  if (command !== command.trim()) return `${never} it starts or ends with a space, which no command does`;
  return undefined;
}

/** Parentheses outside single quotes pair up (`Bash(echo ':)')` is fine, `Read(a))` is not). */
function balanced(pattern: string): boolean {
  if (!pattern.includes("(") && !pattern.includes(")")) return true;
  let depth = 0;
  let quoted = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern.charCodeAt(index);
    if (char === 0x27) quoted = !quoted;
    else if (!quoted && char === 0x28) depth++;
    else if (!quoted && char === 0x29 && --depth < 0) return false;
  }
  return depth === 0;
}
