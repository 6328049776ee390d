/**
 * The grammar of a permission rule, as clients and configs write it: `Tool`, `mcp__server`, or
 * `Tool(pattern)`. It is part of the protocol (what a client may send); what a rule means is
 * src/permissions/'s, which reads rules with this same grammar.
 */
export const PERMISSION_RULE_SYNTAX = /^([a-zA-Z0-9_-]+)(?:\((.*)\))?$/s;

/** Bounds a rule: longer ones are not rules anyone writes, and matching costs their length. */
export const MAX_RULE_CHARS = 1000;

/** Why a rule is refused, or undefined when it has the grammar. */
export function permissionRuleProblem(rule: string): string | undefined {
  if (rule.length <= MAX_RULE_CHARS && PERMISSION_RULE_SYNTAX.exec(rule.trim())?.[1]) return undefined;
  return `Permission rule ${JSON.stringify(rule.slice(0, 80))} is malformed: use "Tool", "mcp__server" or "Tool(pattern)", at most ${MAX_RULE_CHARS} characters`;
}
