/**
 * Per-session permission rules. A rule names a tool (`"Write"`), a whole MCP server (`"mcp__slack"`),
 * one MCP tool (`"mcp__slack__post"`), or a tool and a pattern over its subject (`"Bash(git *)"`,
 * `"Read(**\/.env)"`), where `*` matches any run of characters.
 *
 * Order of decision: a deny rule that matches wins; `bypass` allows the rest; `readOnly` allows
 * read-only calls and refuses every other one, allow rules notwithstanding; `default` allows reads,
 * and writes too unless the session has an allow list, in which case a write needs a rule covering
 * it. Nothing is allowed by accident: a tool that does not declare itself read-only counts as a write.
 *
 * Bash subjects are split into their simple commands (`shell-command.ts`): a deny rule matching any
 * of them denies, and an allow list covers the command only if every part is covered and nothing in
 * it (a substitution, a redirection to a file) escapes a static reading.
 */
import { PERMISSION_RULE_SYNTAX, permissionRuleProblem } from "../protocol/permission-rule-syntax.ts";
import type { Tool, ToolInput } from "../tool/tool.ts";
import { splitShellCommand } from "./shell-command.ts";

export type PermissionMode = "default" | "readOnly" | "bypass";

export interface PermissionSettings {
  mode: PermissionMode;
  allow: readonly string[];
  deny: readonly string[];
}

export const DEFAULT_PERMISSIONS: PermissionSettings = { mode: "default", allow: [], deny: [] };

export interface ParsedRule {
  /** Tool name, or `mcp__server` for a whole server. */
  target: string;
  /** The pattern inside the parentheses, if any. */
  pattern?: RegExp;
  source: string;
}

export function parseRule(rule: string): ParsedRule {
  const match = PERMISSION_RULE_SYNTAX.exec(rule.trim());
  if (!match?.[1]) throw new Error(permissionRuleProblem(rule));
  const parsed: ParsedRule = { target: match[1], source: rule };
  if (match[2] !== undefined) parsed.pattern = wildcardToRegExp(match[2]);
  return parsed;
}

function wildcardToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*+/g, ".*");
  return new RegExp(`^${escaped}$`, "s");
}

/** Whether a rule names this tool (ignoring its pattern). */
export function ruleTargetsTool(rule: ParsedRule, tool: Pick<Tool, "name" | "aliases">): boolean {
  if (rule.target === tool.name || tool.aliases.includes(rule.target)) return true;
  return rule.target.startsWith("mcp__") && !rule.target.slice(5).includes("__") && tool.name.startsWith(`${rule.target}__`);
}

/** What pattern rules are matched against for one call. */
interface CallSubject {
  /** The subject as a whole (a Bash command as written), if the tool has one. */
  whole?: string;
  /** The pieces an allow list must cover one by one: the simple commands of a Bash command. */
  parts: readonly string[];
  /** Why no allow rule may cover this call, if a static reading cannot be trusted. */
  unsafe?: string;
}

/** Tools whose subject is a shell command, split before matching. MCP tools never are. */
const SHELL_TOOLS: ReadonlySet<string> = new Set(["Bash"]);

function callSubject(tool: Tool, input: ToolInput, cwd: string): CallSubject {
  const whole = tool.permissionSubject(input, cwd);
  if (whole === undefined) return { parts: [] };
  if (tool.isMcp || !SHELL_TOOLS.has(tool.name)) return { whole, parts: [whole] };
  const split = splitShellCommand(whole);
  return { whole, parts: split.parts, ...(split.unsafe !== undefined && { unsafe: split.unsafe }) };
}

function patternMatches(pattern: RegExp, subject: string, cwd: string): boolean {
  if (pattern.test(subject)) return true;
  // Path patterns may be written relative to the working directory.
  const prefix = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return subject.startsWith(prefix) && pattern.test(subject.slice(prefix.length));
}

/** Whether a rule matches a call: for a Bash command, the whole command or any one of its parts. */
export function ruleMatches(rule: ParsedRule, tool: Tool, input: ToolInput, cwd: string): boolean {
  return ruleMatchesSubject(rule, tool, callSubject(tool, input, cwd), cwd);
}

function ruleMatchesSubject(rule: ParsedRule, tool: Tool, subject: CallSubject, cwd: string): boolean {
  if (!ruleTargetsTool(rule, tool)) return false;
  const pattern = rule.pattern;
  if (!pattern) return true;
  const candidates = subject.whole === undefined ? [] : [subject.whole, ...subject.parts];
  return candidates.some((candidate) => patternMatches(pattern, candidate, cwd));
}

/** Whether allow rules cover every part of a call (a tool-wide rule covers all of it). */
function coveredByAllowRules(rules: readonly ParsedRule[], tool: Tool, subject: CallSubject, cwd: string): boolean {
  const relevant = rules.filter((rule) => ruleTargetsTool(rule, tool));
  if (relevant.some((rule) => !rule.pattern)) return true;
  if (subject.whole === undefined || subject.unsafe !== undefined || subject.parts.length === 0) return false;
  const patterns = relevant.flatMap((rule) => (rule.pattern ? [rule.pattern] : []));
  return subject.parts.every((part) => patterns.some((pattern) => patternMatches(pattern, part, cwd)));
}

export type RuleVerdict = { allowed: true } | { allowed: false; reason: string };

/** The session's general rules for one call. The tool's own check runs before this. */
export function evaluateRules(
  settings: PermissionSettings,
  tool: Tool,
  input: ToolInput,
  cwd: string,
  parse: (rule: string) => ParsedRule = parseRule,
): RuleVerdict {
  const subject = callSubject(tool, input, cwd);
  const denied = settings.deny.map(parse).find((rule) => ruleMatchesSubject(rule, tool, subject, cwd));
  if (denied) return { allowed: false, reason: `denied by the rule "${denied.source}"` };
  if (settings.mode === "bypass") return { allowed: true };
  const readOnly = tool.isReadOnly(input);
  if (settings.mode === "readOnly") {
    // Strict on purpose: an allow rule written for normal sessions must not open a read-only one.
    return readOnly ? { allowed: true } : { allowed: false, reason: "the session is read-only and this call may write" };
  }
  if (readOnly || settings.allow.length === 0) return { allowed: true };
  if (coveredByAllowRules(settings.allow.map(parse), tool, subject, cwd)) return { allowed: true };
  const why = subject.unsafe === undefined ? "" : ` (the command contains ${subject.unsafe}, which no allow rule can cover)`;
  return { allowed: false, reason: `no allow rule of this session covers it${why}` };
}

/** Deny rules that name whole tools remove them from the pool before any model sees them. */
export function isToolDeniedOutright(settings: Pick<PermissionSettings, "deny">, tool: Pick<Tool, "name" | "aliases">): boolean {
  return settings.deny.some((rule) => {
    const parsed = parseRule(rule);
    return parsed.pattern === undefined && ruleTargetsTool(parsed, tool);
  });
}
