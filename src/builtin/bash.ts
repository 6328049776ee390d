/**
 * Bash: runs one command with `bash -c` in the session's working directory, in its own process
 * group, with a time limit, cancellation, and bounded output.
 *
 * A non-zero exit status is not a tool error: `grep` finding nothing, a failing test run or `diff`
 * showing differences are answers the model asked for, so the status is reported in the text and
 * `isError` stays false. The call is an error only when the command could not run or was stopped
 * (time limit, cancellation), because then the output is incomplete.
 */
import { commandEnvironment } from "./command-environment.ts";
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import type { Tool } from "../tool/tool.ts";
import { errorResult, type ToolResult } from "../tool/result.ts";
import { BoundedOutput, pump } from "./bounded-output.ts";
import { shellAccess } from "./shell-access.ts";
import { ShellParser } from "./shell-parser.ts";
import { CALL_MARK_VARIABLE, terminateGroup } from "./process-group.ts";
import { randomUUID } from "node:crypto";
import { statOrUndefined } from "./text-file.ts";
import type { CommandSandbox } from "../sandbox/command-sandbox.ts";
import description from "./bash.txt" with { type: "text" };

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;
/** Per stream: the start and the end of the output are kept, the middle is counted. */
export const BASH_OUTPUT_HEAD_BYTES = 20_000;
export const BASH_OUTPUT_TAIL_BYTES = 10_000;

export interface BashToolOptions {
  /** Between SIGTERM and SIGKILL when a command is stopped. */
  killGraceMs?: number;
  /** Reads commands for the permission rules; made on first use unless one is given. */
  shellParser?: ShellParser;
  /**
   * How long to keep reading after bash exits. A job it left in the background may hold the pipes
   * open forever; output already written arrives well within this.
   */
  drainAfterExitMs?: number;
  /**
   * The kernel sandbox each command runs in (src/sandbox/). Without one (unit tests, embedders) the
   * command runs with the daemon's rights and only the permission rules apply.
   */
  sandbox?: CommandSandbox;
}

const inputSchema = () =>
  z.strictObject({
    command: z.string().min(1, "must not be empty").describe("The command to run."),
    timeout: z
      .number()
      .int()
      .positive()
      .max(MAX_BASH_TIMEOUT_MS)
      .optional()
      .describe(`Time limit in milliseconds (default ${DEFAULT_BASH_TIMEOUT_MS}, at most ${MAX_BASH_TIMEOUT_MS}).`),
    description: z
      .string()
      .optional()
      .describe("What the command does, in 5-10 words, for the person watching (for example \"Run the unit tests\")."),
  });

export function createBashTool(options: BashToolOptions = {}): Tool {
  const killGraceMs = options.killGraceMs ?? 2_000;
  const drainAfterExitMs = options.drainAfterExitMs ?? 250;
  const shellParser = options.shellParser ?? new ShellParser();
  return buildTool({
    name: "Bash",
    description,
    searchHint: "run shell command terminal execute script",
    inputSchema,
    // Our own limit is per call (the `timeout` input); the pipeline's only needs to sit above it.
    timeoutMs: MAX_BASH_TIMEOUT_MS + killGraceMs + drainAfterExitMs + 5_000,
    openWorld: true,
    permissionSubject: ({ command }) => command,
    access: async ({ command }, cwd) => {
      const access = await shellAccess(shellParser, command, cwd);
      // Confined, the kernel hides what the path deny rules cover: the rules keep refusing what must
      // match, and leave what only may match (a glob, a variable) to it (CallAccess.kernelEnforcesPaths).
      const confined = options.sandbox !== undefined && (await options.sandbox.ready()).confined;
      return confined ? { ...access, kernelEnforcesPaths: true } : access;
    },
    async call({ command, timeout }, context): Promise<ToolResult> {
      const cwd = await statOrUndefined(context.cwd);
      if (!cwd?.isDirectory()) return errorResult(`The working directory ${context.cwd} does not exist, so the command was not run.`);
      const prepared = options.sandbox
        ? await options.sandbox.prepare({
            command: ["bash", "-c", command],
            cwd: context.cwd,
            workspaceRoots: context.workspaceRoots,
            denyRules: context.pathDeny?.rules ?? [],
            ruleBases: context.pathDeny?.bases ?? [context.cwd],
          })
        : ({ kind: "unconfined", argv: ["bash", "-c", command], reason: "no sandbox given" } as const);
      if (prepared.kind === "refused") return errorResult(prepared.message);
      const run = { argv: prepared.argv, env: prepared.kind === "confined" ? prepared.env : {}, limitMs: timeout ?? DEFAULT_BASH_TIMEOUT_MS, killGraceMs, drainAfterExitMs };
      try {
        return await runCommand(run, context.cwd, context.signal);
      } finally {
        if (prepared.kind === "confined") await prepared.cleanup();
      }
    },
  });
}

interface CommandRun {
  argv: readonly string[];
  env: Record<string, string>;
  limitMs: number;
  killGraceMs: number;
  drainAfterExitMs: number;
}

async function runCommand({ argv, env, limitMs, killGraceMs, drainAfterExitMs }: CommandRun, cwd: string, signal: AbortSignal): Promise<ToolResult> {
  // Every process of the command inherits the mark, so one that leaves the group and the tree
  // (`setsid -f`) is still found when the command is stopped.
  const mark = randomUUID();
  const child = Bun.spawn([...argv], {
    cwd,
    env: commandEnvironment(process.env, { ...env, [CALL_MARK_VARIABLE]: mark }),
    detached: true,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = new BoundedOutput(BASH_OUTPUT_HEAD_BYTES, BASH_OUTPUT_TAIL_BYTES);
  const stderr = new BoundedOutput(BASH_OUTPUT_HEAD_BYTES, BASH_OUTPUT_TAIL_BYTES);
  const readers = [pump(child.stdout, stdout), pump(child.stderr, stderr)];

  let stopped: "timeout" | "cancelled" | undefined;
  const stop = (reason: "timeout" | "cancelled") => {
    if (stopped) return;
    stopped = reason;
    terminateGroup(child.pid, { graceMs: killGraceMs, mark });
  };
  const timer = setTimeout(() => stop("timeout"), limitMs);
  const onAbort = () => stop("cancelled");
  signal.addEventListener("abort", onAbort, { once: true });
  if (signal.aborted) onAbort();
  let exitCode: number;
  try {
    exitCode = await child.exited;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
  await Promise.race([Promise.all(readers.map((reader) => reader.done)), Bun.sleep(drainAfterExitMs)]);
  for (const reader of readers) reader.stop();

  const body = describeOutput(stdout, stderr);
  if (stopped === "timeout") {
    return errorResult(`${body}\nCommand timed out after ${formatDuration(limitMs)}; it and the processes still under it were stopped.`);
  }
  if (stopped === "cancelled") return errorResult(`${body}\nCommand was cancelled; it and the processes still under it were stopped.`);
  const status = child.signalCode ? `Command was killed by signal ${child.signalCode}.` : `Exit code: ${exitCode}`;
  return {
    content: [{ type: "text", text: `${body}\n${status}` }],
    isError: false,
    structuredContent: { exitCode: child.signalCode ? null : exitCode, signal: child.signalCode ?? null },
  };
}

export const bashTool = createBashTool();

function describeOutput(stdout: BoundedOutput, stderr: BoundedOutput): string {
  const parts: string[] = [];
  const out = withoutFinalNewlines(stdout.text());
  const err = withoutFinalNewlines(stderr.text());
  if (out !== "") parts.push(out);
  if (err !== "") parts.push(`[stderr]\n${err}`);
  return parts.length > 0 ? parts.join("\n") : "(no output)";
}

function withoutFinalNewlines(text: string): string {
  return text.replace(/\n+$/, "");
}

function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
