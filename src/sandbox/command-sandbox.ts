/**
 * The seam between a tool that runs commands (Bash) and the kernel sandbox: for one call it says
 * how to run the command — confined (the bwrap argv, the private TMPDIR, what to clean up after),
 * unconfined with the reason (mode `off`, or `auto` where the system has no sandbox), or refused
 * (mode `required` without a sandbox, or deny rules that could not be listed in time).
 *
 * The settings are the operator's config, read at each call so a reload applies; nothing a
 * session sends reaches them, so a client can never widen the sandbox.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { existsSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { PathDenyRule } from "../permissions/rules.ts";
import { isInside } from "../runtime/path-inside.ts";
import { bwrapArgv, type SandboxNetwork } from "./bwrap-argv.ts";
import { denyMasks } from "./deny-paths.ts";
import type { SandboxSupport } from "./sandbox-support.ts";
import { createServerConfiner, type ServerConfiner } from "./server-sandbox.ts";

export type SandboxMode = "auto" | "required" | "off";

export interface SandboxSettings {
  mode: SandboxMode;
  network: SandboxNetwork;
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { mode: "auto", network: "none" };

/** What `status` and `explain` say about the sandbox. */
export interface SandboxState {
  mode: SandboxMode;
  network: SandboxNetwork;
  backend: SandboxSupport["backend"];
  /** Whether Bash commands run confined now. */
  confined: boolean;
  /** One sentence: what holds, and the weakness where there is one. */
  summary: string;
  reason?: string;
  landlockAbi?: number;
  userNamespaces: boolean | "unknown";
  probeMs: number;
}

export interface CommandRequest {
  command: readonly string[];
  cwd: string;
  workspaceRoots: readonly string[];
  denyRules: readonly PathDenyRule[];
  /** Where relative deny patterns are read from. */
  ruleBases: readonly string[];
}

export type PreparedCommand =
  | { kind: "confined"; argv: string[]; env: Record<string, string>; cleanup: () => Promise<void> }
  | { kind: "unconfined"; argv: string[]; reason: string }
  | { kind: "refused"; message: string };

export interface CommandSandbox {
  /** Resolves once the start-up probe is done. */
  ready(): Promise<SandboxState>;
  /** The state now (before the probe answers: the settings, backend "none", not confined). */
  state(): SandboxState;
  prepare(request: CommandRequest): Promise<PreparedCommand>;
  /** Wraps a stdio MCP server whose config asks for a sandbox (server-sandbox.ts). */
  confineServer: ServerConfiner;
}

export interface CommandSandboxOptions {
  support: Promise<SandboxSupport>;
  settings: () => SandboxSettings;
  /** The daemon's own files no command may see: state dir, socket, config. */
  hidden: () => readonly string[];
  home?: string;
  tmpBase?: string;
}

export function createCommandSandbox(options: CommandSandboxOptions): CommandSandbox {
  let support: SandboxSupport | undefined;
  const probed = options.support.then((found) => (support = found));
  const home = options.home ?? homedir();
  const stateOf = (): SandboxState => describeSandbox(options.settings(), support);
  return {
    confineServer: createServerConfiner(options.support, options.hidden),
    async ready() {
      await probed;
      return stateOf();
    },
    state: stateOf,
    async prepare(request) {
      const settings = options.settings();
      if (settings.mode === "off") return { kind: "unconfined", argv: [...request.command], reason: "the config turns the sandbox off" };
      const found = support ?? (await probed);
      if (found.backend === "none" || found.bwrapPath === undefined) {
        const why = found.reason ?? "no sandbox backend";
        if (settings.mode === "required") {
          return { kind: "refused", message: `The command was not run: the config requires a sandbox (sandbox.mode "required") and there is none here (${why}).` };
        }
        return { kind: "unconfined", argv: [...request.command], reason: why };
      }
      const writable = request.workspaceRoots.filter(isDirectory);
      const roots = [...new Set([...writable, request.cwd])];
      const walked = await denyMasks({ rules: request.denyRules, bases: request.ruleBases, roots, home });
      if (!walked.ok) return { kind: "refused", message: walked.error };
      const tmpDir = await mkdtemp(join(options.tmpBase ?? tmpdir(), "toolpool-call-"));
      const hidden = options
        .hidden()
        .filter((path) => existsSync(path) && !writable.some((root) => isInside(root, path)))
        .map((path) => ({ path, directory: isDirectory(path) }));
      const argv = bwrapArgv(
        { bwrapPath: found.bwrapPath, writable, tmpDir, masks: walked.masks, hidden, network: settings.network, cwd: request.cwd },
        request.command,
      );
      return {
        kind: "confined",
        argv,
        env: { TMPDIR: tmpDir },
        cleanup: () => rm(tmpDir, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined),
      };
    },
  };
}

export function describeSandbox(settings: SandboxSettings, support: SandboxSupport | undefined): SandboxState {
  const facts = {
    mode: settings.mode,
    network: settings.network,
    backend: support?.backend ?? "none",
    ...(support?.landlockAbi !== undefined && { landlockAbi: support.landlockAbi }),
    userNamespaces: support?.userNamespaces ?? "unknown",
    probeMs: support?.probeMs ?? 0,
  } as const;
  if (settings.mode === "off") {
    return { ...facts, confined: false, summary: "sandbox off by config: Bash commands run with the daemon's full rights; only the permission rules stand between a program and the system" };
  }
  if (!support) return { ...facts, confined: false, summary: "sandbox not probed yet" };
  if (support.backend === "none") {
    const reason = support.reason ?? "no sandbox backend";
    const summary =
      settings.mode === "required"
        ? `no sandbox here (${reason}); sandbox.mode is "required", so Bash calls are refused`
        : `no sandbox here (${reason}): Bash commands run unconfined and only the permission rules, which read command lines, stand between a program and the system`;
    return { ...facts, confined: false, reason, summary };
  }
  const network = settings.network === "all" ? "network allowed" : "no network";
  return { ...facts, confined: true, summary: `Bash runs in bubblewrap: writes only in the workspace roots and a private temp dir, deny-rule paths hidden, ${network}, every process ends with the call` };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
