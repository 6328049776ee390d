/**
 * Per-session permission rules. A rule names a tool (`"Write"`), a whole MCP server (`"mcp__slack"`),
 * one MCP tool (`"mcp__slack__post"`), or a tool and a pattern over its subject (`"Bash(git *)"`,
 * `"Read(**\/.env)"`), where `*` matches any run of characters, `/` included.
 *
 * Order of decision: a deny rule that matches (or cannot be shown not to match) wins; `bypass`
 * allows the rest; `readOnly` allows read-only calls and refuses every other one, allow rules
 * notwithstanding; `default` allows reads, and writes too unless an allow list applies, in which
 * case a write needs a rule covering it in every non-empty list (the config's, the session's).
 *
 * Path rules govern every tool: `Read(pattern)` matches every path a call reads (Read, Grep, Glob,
 * Edit and NotebookEdit, whose answers show the file, and Bash arguments), `Edit(pattern)`,
 * `Write(pattern)` and `NotebookEdit(pattern)` every path a call writes. A tool that cannot say
 * which paths it touches is refused by any path rule.
 *
 * Bash rules match the command's parse (`shell-facts.ts`): a deny rule matching any command in it
 * denies, an allow list covers it only if every command in it is covered and nothing escapes the
 * reading.
 */
import { PERMISSION_RULE_SYNTAX, permissionRuleProblem, PREFIX_MARKER, SHELL_RULE_TOOLS } from "../protocol/permission-rule-syntax.ts";
import { mcpServerPrefix } from "../tool/names.ts";
import type { CallAccess, Tool, ToolInput } from "../tool/tool.ts";
import type { PathDenyRule } from "./path-deny-rule.ts";
import type { ShellFacts } from "./shell-facts.ts";
import { HOLE, mayMatch, mustMatch, showTemplate, type Template } from "./star-match.ts";

export type PermissionMode = "default" | "readOnly" | "bypass";

export interface PermissionSettings {
  mode: PermissionMode;
  /** The config's allow list (or the only one when no config set any). */
  allow: readonly string[];
  deny: readonly string[];
  /** The session's own allow list (see ceiling.ts): in default mode it must cover a write too. */
  sessionAllow?: readonly string[];
  /** What the session itself asked for (already part of `deny` and `mode`), kept for a config reload. */
  sessionDeny?: readonly string[];
  sessionMode?: PermissionMode;
  /**
   * Directories a relative deny pattern (`Read(secrets/*)`) is also read from, besides the call's
   * working directory: the operator's workspace roots (else the daemon's directory) and the
   * session's. A session that moves its cwd does not move the operator's rules with it.
   */
  ruleRoots?: readonly string[];
  /**
   * Where the config's relative allow patterns (`Write(docs/*)`) are read from instead of the
   * working directory: the config's workspace roots, when it sets them. A session that moves its
   * cwd to `src/` must not make `docs/*` cover `src/docs/`. The session's own allow list is read
   * from its working directory.
   */
  allowRoots?: readonly string[];
}

export type { PathDenyRule } from "./path-deny-rule.ts";

export const DEFAULT_PERMISSIONS: PermissionSettings = { mode: "default", allow: [], deny: [] };

export interface ParsedRule {
  /** Tool name, or `mcp__server` for a whole server. */
  target: string;
  /** The pattern inside the parentheses, if any, as a regular expression. */
  pattern?: RegExp;
  /** The same pattern as written: literal text and `*`. */
  glob?: string;
  /** What the pattern matches, as patterns of literal text and `*`: `Bash(rm:*)` is `rm` and `rm *`. */
  globs?: readonly string[];
  source: string;
}

export function parseRule(rule: string): ParsedRule {
  const problem = permissionRuleProblem(rule);
  const match = problem === undefined ? PERMISSION_RULE_SYNTAX.exec(rule.trim()) : null;
  if (!match?.[1]) throw new Error(problem);
  const parsed: ParsedRule = { target: match[1], source: rule };
  const pattern = match[2];
  if (pattern !== undefined) {
    // Claude Code's `Bash(npm run test:*)`: the command alone, or followed by a space and anything.
    const prefix = SHELL_RULE_TOOLS.has(match[1]) && pattern.endsWith(PREFIX_MARKER) ? pattern.slice(0, -PREFIX_MARKER.length) : undefined;
    const globs = prefix === undefined ? [pattern] : [prefix, `${prefix} *`];
    parsed.globs = globs;
    parsed.glob = pattern;
    // Made on first use only: every rule is parsed at every call, and matching uses the globs.
    let regex: RegExp | undefined;
    Object.defineProperty(parsed, "pattern", {
      enumerable: true,
      get: () => (regex ??= globs.length === 1 ? wildcardToRegExp(pattern) : new RegExp(globs.map((glob) => `(?:${wildcardToRegExp(glob).source})`).join("|"), "s")),
    });
  }
  return parsed;
}

function wildcardToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*+/g, ".*");
  return new RegExp(`^${escaped}$`, "s");
}

/**
 * Whether a rule names this tool (ignoring its pattern). A server rule matches on the server's
 * identity, never on a name prefix: `mcp__x` is not a rule about server `x__y`.
 */
export function ruleTargetsTool(rule: ParsedRule, tool: Pick<Tool, "name" | "aliases" | "mcpInfo">): boolean {
  if (rule.target === tool.name || tool.aliases.includes(rule.target)) return true;
  return tool.mcpInfo !== undefined && rule.target === mcpServerPrefix(tool.mcpInfo.server);
}

/** Rules named after these tools also govern the paths every other tool reads or writes. */
const PATH_RULES: Record<string, "read" | "write"> = { Read: "read", Edit: "write", Write: "write", NotebookEdit: "write" };


interface Call {
  tool: Tool;
  subject: string | undefined;
  access: CallAccess;
  cwd: string;
  /** Where relative deny patterns are read from: the cwd and the rule roots. */
  denyBases: readonly string[];
}

function isShell(tool: Tool): boolean {
  return !tool.isMcp && SHELL_RULE_TOOLS.has(tool.name);
}

/** A pattern against a subject; path patterns may be written relative to any of `bases`. */
function patternMatches(glob: string, subject: Template | string, bases: readonly string[], match: typeof mayMatch): boolean {
  if (match(glob, subject)) return true;
  const parts = typeof subject === "string" ? [subject] : subject;
  const head = parts[0];
  if (typeof head !== "string") return false;
  return bases.some((base) => {
    const prefix = base.endsWith("/") ? base : `${base}/`;
    return head.startsWith(prefix) && match(glob, [head.slice(prefix.length), ...parts.slice(1)]);
  });
}

export function denyBasesOf(settings: Pick<PermissionSettings, "ruleRoots">, cwd: string): readonly string[] {
  return [...new Set([cwd, ...(settings.ruleRoots ?? [])])];
}

export type RuleVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * The rule check as steps: it yields after each rule and each reading it matches, so a driver can
 * stop it at a budget or let other clients be served between steps (see evaluateRulesPaced).
 */
type Steps<T> = Generator<void, T, void>;

/** The session's general rules for one call, checked at once. The tool's own check runs before this. */
export function evaluateRules(
  settings: PermissionSettings,
  tool: Tool,
  input: ToolInput,
  cwd: string,
  access: CallAccess,
  parse: (rule: string) => ParsedRule = parseRule,
): RuleVerdict {
  const steps = ruleSteps(settings, tool, input, cwd, access, parse);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export interface RulePace {
  /** Longest stretch the check runs before letting the thread serve others. */
  sliceMs: number;
  /** Past this the call is refused: a check that cannot finish cannot allow. */
  budgetMs: number;
  /** Lets other work run (a macrotask turn). */
  yieldTurn: () => Promise<void>;
  now?: () => number;
}

/**
 * The same check, run in slices of `sliceMs` with the thread handed back between them, and refused
 * past `budgetMs` (1,000 deny rules against a 64 KiB command must not stall other clients or a stop).
 */
export async function evaluateRulesPaced(
  settings: PermissionSettings,
  tool: Tool,
  input: ToolInput,
  cwd: string,
  access: CallAccess,
  pace: RulePace,
  parse: (rule: string) => ParsedRule = parseRule,
): Promise<RuleVerdict> {
  const now = pace.now ?? (() => performance.now());
  const started = now();
  let slice = started;
  const steps = ruleSteps(settings, tool, input, cwd, access, parse);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (now() - slice < pace.sliceMs) continue;
    if (now() - started > pace.budgetMs) {
      const rules = settings.deny.length + settings.allow.length + (settings.sessionAllow?.length ?? 0);
      return { allowed: false, reason: `checking the call against the session's ${rules} rules took longer than its ${pace.budgetMs} ms budget` };
    }
    await pace.yieldTurn();
    slice = now();
  }
}

function* ruleSteps(settings: PermissionSettings, tool: Tool, input: ToolInput, cwd: string, access: CallAccess, parse: (rule: string) => ParsedRule): Steps<RuleVerdict> {
  const call: Call = { tool, subject: tool.permissionSubject(input, cwd), access, cwd, denyBases: denyBasesOf(settings, cwd) };
  for (const text of settings.deny) {
    const reason = yield* denialReason(parse(text), call);
    if (reason) return { allowed: false, reason };
    yield;
  }
  if (settings.mode === "bypass") return { allowed: true };
  const readOnly = tool.isReadOnly(input);
  if (settings.mode === "readOnly") {
    // Strict on purpose: an allow rule written for normal sessions must not open a read-only one.
    return readOnly ? { allowed: true } : { allowed: false, reason: "the session is read-only and this call may write" };
  }
  if (readOnly) return { allowed: true };
  const lists: [readonly string[], string, readonly string[]][] = [
    [settings.allow, "the daemon's config", settings.allowRoots ?? [cwd]],
    [settings.sessionAllow ?? [], "this session", [cwd]],
  ];
  for (const [list, whose, bases] of lists) {
    const gap = list.length === 0 ? undefined : yield* uncoveredPart(list.map(parse), call, bases);
    if (gap === undefined) continue;
    return { allowed: false, reason: `no allow rule of ${whose} covers it${gap}` };
  }
  return { allowed: true };
}

/** Why a deny rule refuses the call, or undefined when it does not apply. */
function* denialReason(rule: ParsedRule, call: Call): Steps<string | undefined> {
  const denied = `denied by the rule "${rule.source}"`;
  const globs = rule.globs;
  const subject = call.subject;
  if (ruleTargetsTool(rule, call.tool)) {
    if (globs === undefined) return denied;
    if (isShell(call.tool)) {
      const shell = call.access.shell;
      if (!shell) return `${denied}: the command could not be read`;
      if (shell.opaque) return `${denied}: the command contains ${shell.opaque}, which the rules cannot see through`;
      if (subject !== undefined && globs.some((glob) => mayMatch(glob, subject))) return denied;
      for (const command of shell.commands) {
        const hit = [command.reading, ...command.alsoReadings].find((reading) => globs.some((glob) => mayMatch(glob, reading)));
        if (hit) return `${denied} (it runs ${showTemplate(hit)})`;
        yield;
      }
    } else if (subject !== undefined && globs.some((glob) => patternMatches(glob, subject, call.denyBases, mayMatch))) {
      return denied;
    }
  }
  const kind = PATH_RULES[rule.target];
  const glob = rule.glob;
  if (kind === undefined || glob === undefined) return undefined;
  const verb = kind === "read" ? "reads" : "writes";
  if (call.access.unknown !== undefined) return `${denied}, which governs the paths every tool ${verb}: ${call.tool.name} ${call.access.unknown}`;
  const shell = call.access.shell;
  // In the kernel sandbox, what the reader cannot see is the kernel's to stop (CallAccess.kernelEnforcesPaths).
  const kernel = call.access.kernelEnforcesPaths === true;
  if (shell?.opaque && !kernel) return `${denied}: the command contains ${shell.opaque}, so the paths it ${verb.slice(0, -1)}s cannot be known`;
  const paths: (Template | string)[] = [...(kind === "read" ? call.access.reads : call.access.writes), ...shellPaths(shell, kind)];
  for (const path of paths) {
    if (patternMatches(glob, path, call.denyBases, kernel ? mustMatch : mayMatch)) return `${denied} (the call ${verb} ${typeof path === "string" ? path : showTemplate(path)})`;
    yield;
  }
  return undefined;
}

function shellPaths(shell: ShellFacts | undefined, kind: "read" | "write"): readonly Template[] {
  if (!shell) return [];
  return kind === "read" ? shell.reads : shell.writes;
}

/**
 * What allow rules leave uncovered: undefined when they cover the whole call (a tool-wide rule
 * covers all of it), else a note for the message, empty when there is nothing more to say.
 */
function* uncoveredPart(rules: readonly ParsedRule[], call: Call, bases: readonly string[]): Steps<string | undefined> {
  const relevant = rules.filter((rule) => ruleTargetsTool(rule, call.tool));
  if (relevant.some((rule) => rule.glob === undefined)) return undefined;
  const globs = relevant.flatMap((rule) => rule.globs ?? []);
  if (!isShell(call.tool)) {
    const subject = call.subject;
    return subject !== undefined && globs.some((glob) => patternMatches(glob, subject, bases, mustMatch)) ? undefined : "";
  }
  const shell = call.access.shell;
  const escape = shell?.opaque ?? shell?.unsafe;
  if (!shell || escape !== undefined) return ` (the command contains ${escape ?? "what could not be read"}, which no allow rule can cover)`;
  if (shell.commands.length === 0) return "";
  for (const command of shell.commands) {
    let covered = false;
    for (let index = 0; index < globs.length && !covered; index++) {
      covered = mustMatch(globs[index] ?? "", command.reading);
      yield;
    }
    if (!covered) return ` (it runs ${showTemplate(command.reading)})`;
  }
  return undefined;
}

/**
 * For calls that list or search files (Grep, Glob): whether a path may be shown, i.e. no deny rule
 * of the kind that governs that access matches it. The rules are parsed once per call.
 */
export function pathFilter(settings: Pick<PermissionSettings, "deny" | "ruleRoots">, cwd: string, parse: (rule: string) => ParsedRule = parseRule): (path: string, kind: "read" | "write") => boolean {
  // Only path rules (`Read(…)`, `Edit(…)`) filter paths; the others are not parsed for it.
  const rules = settings.deny.filter((rule) => /^(Read|Edit|Write|NotebookEdit)\(/.test(rule.trim())).map(parse).filter((rule) => rule.glob !== undefined && PATH_RULES[rule.target] !== undefined);
  const bases = denyBasesOf(settings, cwd);
  return (path, kind) => !rules.some((rule) => PATH_RULES[rule.target] === kind && patternMatches(rule.glob ?? "", path, bases, mayMatch));
}

/** Deny rules that name whole tools remove them from the pool before any model sees them. */
export function isToolDeniedOutright(settings: Pick<PermissionSettings, "deny">, tool: Pick<Tool, "name" | "aliases" | "mcpInfo">): boolean {
  return outrightDenial(settings.deny)(tool);
}

/**
 * `isToolDeniedOutright` for many tools under the same rules (the pool's assembly): the rules are
 * parsed once, not once per tool.
 */
export function outrightDenial(deny: readonly string[]): (tool: Pick<Tool, "name" | "aliases" | "mcpInfo">) => boolean {
  // A rule with a pattern never removes a tool, and is not parsed.
  const rules = deny.flatMap((rule) => {
    if (rule.includes("(")) return [];
    const parsed = parseRule(rule);
    return parsed.pattern === undefined ? [parsed] : [];
  });
  return (tool) => rules.some((parsed) => ruleTargetsTool(parsed, tool));
}


/** The deny rules that govern paths (`Read(…)`, `Edit(…)`, `Write(…)`, `NotebookEdit(…)` with a pattern). */
export function pathDenyRules(deny: readonly string[], parse: (rule: string) => ParsedRule = parseRule): PathDenyRule[] {
  return deny.flatMap((rule) => {
    const parsed = parse(rule);
    const kind = PATH_RULES[parsed.target];
    return kind === undefined || parsed.glob === undefined ? [] : [{ kind, glob: parsed.glob, source: rule }];
  });
}

/**
 * Whether a path deny rule matches `path`, with relative patterns also read from `bases` (as the
 * pipeline reads them). The sandbox uses it to find the files it must hide from programs.
 */
export function pathRuleMatches(rule: Pick<PathDenyRule, "glob">, path: string, bases: readonly string[]): boolean {
  return patternMatches(rule.glob, path, bases, mayMatch);
}

/** Whether a path deny rule matches everything beneath the directory `path` (so it can be hidden whole). */
export function pathRuleCoversTree(rule: Pick<PathDenyRule, "glob">, path: string, bases: readonly string[]): boolean {
  return patternMatches(rule.glob, [path.endsWith("/") ? path : `${path}/`, HOLE], bases, mustMatch);
}
