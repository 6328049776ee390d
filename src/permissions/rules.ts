/**
 * Per-session permission rules. A rule names a tool (`"Write"`), a whole MCP server (`"mcp__slack"`),
 * one MCP tool (`"mcp__slack__post"`), or a tool and a pattern over its subject (`"Bash(git *)"`,
 * `"Read(**\/.env)"`), where `*` matches any run of characters. Deny rules always win; then the mode
 * and the allow list decide. Nothing is allowed by accident: a tool that does not declare itself
 * read-only counts as a write.
 */
import type { Tool, ToolInput } from "../tool/tool.ts";

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
  const match = /^([a-zA-Z0-9_-]+)(?:\((.*)\))?$/s.exec(rule.trim());
  if (!match?.[1]) {
    throw new Error(`Permission rule ${JSON.stringify(rule)} is malformed: use "Tool", "mcp__server" or "Tool(pattern)"`);
  }
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

export function ruleMatches(rule: ParsedRule, tool: Tool, input: ToolInput, cwd: string): boolean {
  if (!ruleTargetsTool(rule, tool)) return false;
  if (!rule.pattern) return true;
  const subject = tool.permissionSubject(input, cwd);
  if (subject === undefined) return false;
  if (rule.pattern.test(subject)) return true;
  // Path patterns may be written relative to the working directory.
  const prefix = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return subject.startsWith(prefix) && rule.pattern.test(subject.slice(prefix.length));
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
  const denied = settings.deny.map(parse).find((rule) => ruleMatches(rule, tool, input, cwd));
  if (denied) return { allowed: false, reason: `denied by the rule "${denied.source}"` };
  if (settings.mode === "bypass") return { allowed: true };
  const allowedByRule = settings.allow.map(parse).some((rule) => ruleMatches(rule, tool, input, cwd));
  if (allowedByRule) return { allowed: true };
  if (settings.mode === "readOnly" && !tool.isReadOnly(input)) {
    return { allowed: false, reason: "the session is read-only and this call may write (no allow rule covers it)" };
  }
  if (settings.allow.length > 0 && !tool.isReadOnly(input)) {
    return { allowed: false, reason: "no allow rule of this session covers it" };
  }
  return { allowed: true };
}

/** Deny rules that name whole tools remove them from the pool before any model sees them. */
export function isToolDeniedOutright(settings: Pick<PermissionSettings, "deny">, tool: Pick<Tool, "name" | "aliases">): boolean {
  return settings.deny.some((rule) => {
    const parsed = parseRule(rule);
    return parsed.pattern === undefined && ruleTargetsTool(parsed, tool);
  });
}
