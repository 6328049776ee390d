/**
 * The single execution pipeline every call goes through, built-in or MCP alike:
 * look up (name or alias) → enabled → validate → permissions → call (abort + timeout) → cap.
 * Every failure along the way is a result with `isError`, worded for the model; nothing throws.
 */
import { evaluateRules, type PermissionSettings } from "../permissions/rules.ts";
import { capResult, errorResult, type ToolResult } from "./result.ts";
import type { Tool, ToolContext } from "./tool.ts";

export const DEFAULT_CALL_TIMEOUT_MS = 120_000;

export interface ExecuteOptions {
  lookup: (name: string) => Tool | undefined;
  permissions: PermissionSettings;
  /** Used when the tool declares no timeout of its own. */
  defaultTimeoutMs?: number;
  /** A reason the tool is switched off at run time (the kill-switch flag), if it is. */
  killSwitch?: (tool: Tool) => string | undefined;
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

export async function executeTool(
  name: string,
  input: unknown,
  context: ToolContext,
  options: ExecuteOptions,
): Promise<ToolResult> {
  const refuse = (kind: CallRefusal["kind"], tool: string, reason: string, message: string) => {
    options.onRefused?.({ kind, tool, reason });
    return errorResult(message);
  };
  const tool = options.lookup(name);
  if (!tool) return refuse("unknown_tool", name, "no such tool", `No tool named "${name}" is available. Use one of the tools you were given.`);
  const killed = options.killSwitch?.(tool);
  if (killed) return refuse("kill_switch", tool.name, killed, `${tool.name} is switched off: ${killed}`);
  if (!tool.isEnabled()) return refuse("not_enabled", tool.name, "not enabled", `${tool.name} is not enabled in this daemon.`);

  const validated = tool.validator(input);
  if (!validated.ok) return errorResult(validated.message);
  const value = validated.value;

  try {
    const problem = await tool.validateInput(value, context);
    if (problem) return errorResult(problem);

    const own = await tool.checkPermissions(value, context);
    if (own.behavior === "deny") return refuse("permission_denied", tool.name, own.message, `Permission denied for ${tool.name}: ${own.message}`);
    const verdict = evaluateRules(options.permissions, tool, value, context.cwd);
    if (!verdict.allowed) return refuse("permission_denied", tool.name, verdict.reason, `Permission denied for ${tool.name}: ${verdict.reason}.`);

    const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const result = await callWithDeadline(tool, value, context, timeoutMs);
    return capResult(result, tool.maxResultSizeChars);
  } catch (error) {
    return errorResult(`${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

class CallStopped extends Error {}

/**
 * Runs the call under one signal that fires on the caller's cancel or the deadline, and stops
 * waiting when it fires even if the tool ignores its signal: a stuck tool must not hold the session.
 */
async function callWithDeadline(
  tool: Tool,
  input: Record<string, unknown>,
  context: ToolContext,
  timeoutMs: number,
): Promise<ToolResult> {
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
