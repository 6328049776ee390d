/**
 * The one call pipeline every call goes through, built-in or MCP, by name or through a router:
 *
 *   resolve (name or alias; a router such as ExecuteExtraTool hands over its target)
 *   → enabled (kill switch, isEnabled) → validate once → validateInput → permissions
 *   → schedule (concurrency safety decided on the validated input) → call under one deadline
 *   → one result cap.
 *
 * What is checked, scheduled, timed and capped is always the tool that really runs. Every failure
 * along the way is a result with `isError`, worded for the model; nothing throws.
 */
import { denyBasesOf, evaluateRulesPaced, isToolDeniedOutright, pathDenyRules, pathFilter, type PermissionSettings, type RulePace } from "../permissions/rules.ts";
import { capResult, errorResult, type ToolResult } from "../tool/result.ts";
import type { Tool, ToolContext, ToolInput } from "../tool/tool.ts";

export const DEFAULT_CALL_TIMEOUT_MS = 120_000;

/** Tools whose input schema this conversation has seen; a blind call that validates is added. */
export interface Discovery {
  has(name: string): boolean;
  add(name: string): void;
}

export interface ExecuteOptions {
  lookup: (name: string) => Tool | undefined;
  permissions: PermissionSettings;
  /** Used when the tool declares no timeout of its own. */
  defaultTimeoutMs?: number;
  /** A reason the tool is switched off at run time (the kill-switch flag), if it is. */
  killSwitch?: (tool: Tool) => string | undefined;
  /** The schedule stage: runs the call alone (`exclusive`) or beside others. Default: at once. */
  schedule?: <T>(exclusive: boolean, task: () => Promise<T>) => Promise<T>;
  /**
   * With `isDeferred`: a deferred tool called without its schema having been shown ("blind") runs
   * when its input validates and is then counted as discovered; when it does not validate, the
   * error carries the schema so the model can fix its input in one step.
   */
  discovery?: Discovery;
  isDeferred?: (tool: Tool) => boolean;
  /** Told which tool a call resolved to, and the router it came through (metrics count the target). */
  onResolved?: (tool: Tool, router: Tool | undefined) => void;
  /** Told when the pipeline refuses a call before the tool runs (the daemon logs it, with the reason). */
  onRefused?: (refusal: CallRefusal) => void;
}

/** A call the pipeline turned away before the tool ran. */
export interface CallRefusal {
  kind: "unknown_tool" | "kill_switch" | "not_enabled" | "permission_denied";
  /** The name asked for (unknown tools) or the tool's own name. */
  tool: string;
  reason: string;
}

interface Resolved {
  tool: Tool;
  input: unknown;
  /** The router the call came through, if any. */
  router?: Tool;
}

/**
 * The rule check runs on the thread that serves every client: in slices of a few milliseconds with
 * the thread handed back between them, and refused past its budget (1,000 deny rules against a
 * 64 KiB command took 95 s in one piece; other clients' pings and a SIGTERM waited for it).
 */
const RULE_PACE: RulePace = { sliceMs: 4, budgetMs: 2_000, yieldTurn: () => new Promise((resolve) => setImmediate(resolve)) };

export async function executeTool(name: string, input: unknown, context: ToolContext, options: ExecuteOptions): Promise<ToolResult> {
  const refuse = (kind: CallRefusal["kind"], tool: string, reason: string, message: string) => {
    options.onRefused?.({ kind, tool, reason });
    return errorResult(message);
  };
  const resolved = resolve(name, input, options, refuse);
  if ("isError" in resolved) return resolved;
  const { tool } = resolved;
  options.onResolved?.(tool, resolved.router);

  const killed = options.killSwitch?.(tool);
  if (killed) return refuse("kill_switch", tool.name, killed, `${tool.name} is switched off: ${killed}`);
  if (!tool.isEnabled()) return refuse("not_enabled", tool.name, "not enabled", `${tool.name} is not enabled in this daemon.`);

  const blind = options.discovery !== undefined && options.isDeferred?.(tool) === true && !options.discovery.has(tool.name);
  const validated = tool.validator(resolved.input);
  if (!validated.ok) return errorResult(blind ? withSchema(validated.message, tool) : validated.message);
  const value = validated.value;

  try {
    const problem = await tool.validateInput(value, context);
    if (problem) return errorResult(problem);
    const own = await tool.checkPermissions(value, context);
    if (own.behavior === "deny") return refuse("permission_denied", tool.name, own.message, `Permission denied for ${tool.name}: ${own.message}`);
    const access = await tool.access(value, context.cwd);
    const verdict = await evaluateRulesPaced(options.permissions, tool, value, context.cwd, access, RULE_PACE);
    if (!verdict.allowed) return refuse("permission_denied", tool.name, verdict.reason, `Permission denied for ${tool.name}: ${verdict.reason}.`);
    if (blind) options.discovery?.add(tool.name);

    const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const pathAllowed = pathFilter(options.permissions, context.cwd);
    const pathDeny = { rules: pathDenyRules(options.permissions.deny), bases: denyBasesOf(options.permissions, context.cwd) };
    const run = () => callWithDeadline(tool, value, { ...context, pathAllowed, pathDeny }, timeoutMs);
    const exclusive = !tool.isConcurrencySafe(value);
    const result = await (options.schedule ? options.schedule(exclusive, run) : run());
    return capResult(result, tool.maxResultSizeChars);
  } catch (error) {
    return errorResult(`${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The resolve stage: the named tool, or the target its router names (one hop; routers do not nest). */
function resolve(
  name: string,
  input: unknown,
  options: ExecuteOptions,
  refuse: (kind: CallRefusal["kind"], tool: string, reason: string, message: string) => ToolResult,
): Resolved | ToolResult {
  const tool = options.lookup(name);
  if (!tool) return refuse("unknown_tool", name, "no such tool", `No tool named "${name}" is available. Use one of the tools you were given.`);
  if (!tool.redirect) return { tool, input };
  // A deny rule on the router itself still closes it.
  if (isToolDeniedOutright(options.permissions, tool)) {
    return refuse("permission_denied", tool.name, "a deny rule names it", `Permission denied for ${tool.name}: denied by a rule of this session.`);
  }
  const own = tool.validator(input);
  if (!own.ok) return errorResult(own.message);
  const routed = tool.redirect(own.value);
  if (!routed.ok) return errorResult(routed.message);
  if (routed.tool.redirect) return errorResult(`${tool.name} cannot run ${routed.tool.name}: call it directly.`);
  return { tool: routed.tool, input: routed.input, router: tool };
}

function withSchema(message: string, tool: Tool): string {
  return `${message}\n\nThe input schema of ${tool.name}:\n${JSON.stringify(tool.inputJSONSchema)}`;
}

class CallStopped extends Error {}

/**
 * Runs the call under one signal that fires on the caller's cancel or the deadline, and stops
 * waiting when it fires even if the tool ignores its signal: a stuck tool must not hold the session.
 */
async function callWithDeadline(tool: Tool, input: ToolInput, context: ToolContext, timeoutMs: number): Promise<ToolResult> {
  if (context.signal.aborted) return errorResult(`${tool.name} was cancelled before it started.`);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new CallStopped("timeout")), timeoutMs);
  const signal = AbortSignal.any([context.signal, deadline.signal]);
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CallStopped("stopped"));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([tool.call(input, { ...context, signal }), stopped]);
  } catch (error) {
    if (deadline.signal.aborted) return errorResult(`${tool.name} timed out after ${formatMs(timeoutMs)} and was stopped.`);
    if (context.signal.aborted) return errorResult(`${tool.name} was cancelled.`);
    throw error;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener("abort", onAbort);
    stopped.catch(() => {});
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
