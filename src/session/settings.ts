/**
 * Turning `toolpool/session` params into settings: the client's choices over the config's over
 * the defaults. Workspace roots are resolved to real paths here, once, so every file tool compares
 * against the same truth; a root that does not exist is refused with the field named.
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { z } from "zod";
import type { Config } from "../config/schema.ts";
import { SettingsError } from "./settings-error.ts";
import { applyPermissionCeiling, narrowReopenRequest, OPERATOR_DEFAULTS, PermissionCeilingError } from "../permissions/ceiling.ts";
import type { PermissionSettings } from "../permissions/rules.ts";
import type { sessionParams } from "../protocol/methods.ts";
import { ProfileError, resolveProfile, type ResolvedProfile } from "../pool/profile.ts";
import type { AnnouncementStyle, Provider, RuntimeSnapshot, SessionSettings } from "./session.ts";
import { MAX_SESSION_ATTRIBUTES } from "../protocol/limits.ts";
import { isInside } from "../runtime/path-inside.ts";

export type SessionRequest = z.output<typeof sessionParams>;


export interface SettingsDefaults {
  config: Config;
  env: NodeJS.ProcessEnv;
  /** Where relative roots resolve and what the root is when nobody names one. */
  daemonCwd: string;
  prefetchCompiled: boolean;
  /** Runtime-flag values for a session opening with these settings; fixed for its life. */
  runtime?: (facts: RuntimeFacts) => RuntimeDefaults;
  /** The default profile of a project whose root is among the session's workspace roots. */
  projectProfile?: (workspaceRoots: readonly string[]) => string | undefined;
}

export interface RuntimeFacts {
  model: string;
  provider: string;
  clientName: string;
  attributes: Record<string, string | number | boolean>;
}

export interface RuntimeDefaults extends RuntimeSnapshot {
  announcements: AnnouncementStyle;
}

export const STATIC_RUNTIME_DEFAULTS: RuntimeDefaults = {
  unsupportedModels: ["haiku"],
  autoPercent: 10,
  searchMaxResults: 5,
  compactAnswers: false,
  disabledTools: [],
  announcements: "list",
};

export function resolveSettings(
  request: SessionRequest,
  defaults: SettingsDefaults,
  previous?: SessionSettings,
): SessionSettings {
  const { config, env } = defaults;
  const provider: Provider = request.provider ?? previous?.provider ?? inferProvider(request.model ?? previous?.model);
  const rootsInput = request.workspaceRoots ?? previous?.workspaceRoots ?? config.workspaceRoots ?? [defaults.daemonCwd];
  const workspaceRoots = rootsInput.map((root, index) => realDirectory(root, `workspaceRoots.${index}`, defaults.daemonCwd));
  const cwd = request.cwd
    ? realDirectory(request.cwd, "cwd", workspaceRoots[0] ?? defaults.daemonCwd)
    : (previous?.cwd && !request.workspaceRoots ? previous.cwd : (workspaceRoots[0] ?? defaults.daemonCwd));
  if (request.workspaceRoots || request.cwd) insideConfiguredRoots(workspaceRoots, cwd, config, defaults.daemonCwd);
  // A re-open (possibly from another connection holding the id) may narrow the roots, never widen them.
  if (previous && request.workspaceRoots) {
    workspaceRoots.forEach((root, index) => {
      if (!previous.workspaceRoots.some((kept) => isInside(root, kept))) {
        throw new SettingsError(`workspaceRoots.${index}`, `${root} is outside this session's workspace roots (${previous.workspaceRoots.join(", ")}); a re-opened session can only narrow them`);
      }
    });
  }
  const model = request.model ?? previous?.model ?? "unknown";
  const clientName = request.clientName ?? previous?.clientName ?? "";
  const attributes = { ...previous?.attributes, ...request.attributes };
  // Re-opens merge their attributes: the bound holds for the sum, not only for each request.
  if (Object.keys(attributes).length > MAX_SESSION_ATTRIBUTES) {
    throw new SettingsError("attributes", `a session keeps at most ${MAX_SESSION_ATTRIBUTES} attributes (this re-open would make ${Object.keys(attributes).length})`);
  }
  const runtime = previous ? { ...previous.runtime, announcements: previous.announcements } : (defaults.runtime?.({ model, provider, clientName, attributes }) ?? STATIC_RUNTIME_DEFAULTS);
  return {
    model,
    provider,
    baseUrl: request.baseUrl ?? previous?.baseUrl ?? null,
    delivery: request.delivery ?? previous?.delivery ?? config.delivery ?? "auto",
    ...((request.inlineTools ?? previous?.inlineTools ?? config.inlineTools ?? false) && { inlineTools: true as const }),
    // Fixed at the first open: a re-open cannot turn the session's call ordering off or on.
    ...((previous ? previous.concurrentCalls : request.concurrentCalls) && { concurrentCalls: true as const }),
    format: request.format ?? previous?.format ?? (provider === "openai" ? "openai" : "anthropic"),
    toolSearch: request.toolSearch ?? previous?.toolSearch ?? config.toolSearch ?? env.ENABLE_TOOL_SEARCH ?? "true",
    contextWindow: request.contextWindow ?? previous?.contextWindow ?? null,
    workspaceRoots,
    cwd,
    permissions: request.permissions || !previous ? sessionPermissions(config, request, previous) : previous.permissions,
    announcements: request.announcements ?? previous?.announcements ?? config.announcements ?? runtime.announcements,
    prefetch: defaults.prefetchCompiled && (request.prefetch ?? previous?.prefetch ?? true),
    outputSchema: request.outputSchema ?? previous?.outputSchema ?? null,
    clientName,
    attributes,
    runtime: {
      unsupportedModels: runtime.unsupportedModels,
      autoPercent: runtime.autoPercent,
      searchMaxResults: runtime.searchMaxResults,
      compactAnswers: runtime.compactAnswers,
      disabledTools: runtime.disabledTools,
    },
    profile: sessionProfile(request, defaults, workspaceRoots, previous),
  };
}

/** The config's rules with the session's merged under them; asking for more is a params error. */
function sessionPermissions(config: Config, request: SessionRequest, previous?: SessionSettings): PermissionSettings {
  try {
    const asked = previous && request.permissions ? narrowReopenRequest(previous.permissions, request.permissions) : request.permissions;
    return applyPermissionCeiling(config.permissions ?? OPERATOR_DEFAULTS, asked);
  } catch (error) {
    if (!(error instanceof PermissionCeilingError)) throw error;
    throw new SettingsError(error.field, error.message);
  }
}

/**
 * The client's pick, else what the session had, else its project's default, else $TOOLPOOL_PROFILE
 * (for harnesses that can set only an environment). Resolved once: a config reload does not
 * reshape an open session's tools.
 */
function sessionProfile(request: SessionRequest, defaults: SettingsDefaults, roots: readonly string[], previous?: SessionSettings): ResolvedProfile | null {
  // Asked every time: opening a session in a project is also how its project file gets read.
  const projectDefault = defaults.projectProfile?.(roots);
  if (request.profile === undefined && previous) return previous.profile;
  const name = request.profile ?? projectDefault ?? (defaults.env.TOOLPOOL_PROFILE || undefined);
  if (name === undefined) return null;
  try {
    return resolveProfile(name, defaults.config);
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    const from = request.profile !== undefined ? "" : projectDefault !== undefined ? " (the project's defaultProfile)" : " (from TOOLPOOL_PROFILE)";
    throw new SettingsError(`profile`, `${error.message}${from}`);
  }
}

function inferProvider(model: string | undefined): Provider {
  if (!model) return "anthropic";
  if (/claude/i.test(model)) return "anthropic";
  if (/^(gpt|o\d|chatgpt)/i.test(model)) return "openai";
  return "other";
}

/**
 * The directories the operator's configuration speaks of: its `workspaceRoots` as real paths (those
 * that exist), else the daemon's own directory. Relative deny rules are read against them too.
 */
export function operatorRoots(config: Pick<Config, "workspaceRoots">, daemonCwd: string): string[] {
  return (config.workspaceRoots ?? [daemonCwd]).flatMap((root) => {
    try {
      return [realpathSync(isAbsolute(root) ? root : resolve(daemonCwd, root))];
    } catch {
      return [];
    }
  });
}

/**
 * Roots the operator configured are a ceiling: a session may name its own, but only those roots or
 * directories inside them (compared as real paths, so a symlink out of a root is outside), and its
 * working directory must lie inside its roots. With no roots configured, the daemon runs as its
 * user on that user's files and a session names any.
 */
function insideConfiguredRoots(asked: readonly string[], cwd: string, config: Pick<Config, "workspaceRoots">, daemonCwd: string): void {
  if (config.workspaceRoots === undefined) return;
  const allowed = operatorRoots(config, daemonCwd);
  const list = allowed.length > 0 ? allowed.join(", ") : "none of the configured roots exists";
  asked.forEach((root, index) => {
    if (!allowed.some((ceiling) => isInside(root, ceiling))) {
      throw new SettingsError(`workspaceRoots.${index}`, `${root} is outside the workspace roots the daemon's config allows (${list})`);
    }
  });
  if (!asked.some((root) => isInside(cwd, root))) {
    throw new SettingsError("cwd", `${cwd} is outside the session's workspace roots (${asked.join(", ")})`);
  }
}

function realDirectory(path: string, field: string, base: string): string {
  const absolute = isAbsolute(path) ? path : resolve(base, path);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new SettingsError(field, `${absolute} does not exist`);
  }
  if (!statSync(real).isDirectory()) {
    throw new SettingsError(field, `${real} is not a directory`);
  }
  return real;
}
