/**
 * Server specs: the config's `mcpServers` (plus the `.mcp.json` files named by `mcpConfig`) turned
 * into what the pool runs — variables expanded, defaults filled, paths resolved. Everything wrong
 * is a ConfigError naming the server and the field, raised before anything is started.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, resolve } from "node:path";
import { z } from "zod";
import { ConfigError, describeIssues, parseConfigText } from "../config/load.ts";
import { mcpServerSchema, reservedServerNameProblem, type Config, type McpServerConfig } from "../config/schema.ts";
import { expandList, expandRecord, expandText } from "./expand-env.ts";

interface SpecBase {
  name: string;
  startup: "eager" | "lazy";
  /** Per-call time limit, extended by progress up to HARD_CALL_CAP_MS; unset: the runtime flag's default. */
  timeoutMs?: number;
  /** At most this many calls at once; the rest wait in a queue of `maxQueued` (call-queue.ts). */
  maxConcurrent?: number;
  maxQueued?: number;
  disabled: boolean;
  /** Raw tool names (or pool names) that are never deferred. */
  alwaysLoad: readonly string[];
  /** The operator's `defer` for the whole server (auto: alwaysLoad and the server's own `_meta`). */
  defer?: "always" | "never" | "auto";
  /** The file the server was defined in, for messages. */
  origin: string;
  /** A project's server: the workspace root whose sessions alone see its tools. */
  project?: string;
  /** A project's server the user has not approved: why it waits (it never starts). */
  untrusted?: string;
  /**
   * A project's approved server: the digests its approval pinned (the project file and each file
   * it executes). Checked again right before every start: a change since makes it wait.
   */
  pins?: Readonly<Record<string, string>>;
}

export interface StdioServerSpec extends SpecBase {
  transport: "stdio";
  command: string;
  args: readonly string[];
  /** Only the variables the config sets; the daemon's own environment is added at spawn. */
  env: Readonly<Record<string, string>>;
  cwd?: string;
  /** The sandbox it runs in (paths absolute), when the config asks for one. */
  sandbox?: ServerSandboxSpec;
}

/** What a sandbox needs to wrap one stdio server's start. */
export interface ServerLaunch {
  name: string;
  command: string;
  args: readonly string[];
  cwd?: string;
  env: Readonly<Record<string, string | undefined>>;
  sandbox: ServerSandboxSpec;
}

export interface ServerSandboxSpec {
  readable: readonly string[];
  writable: readonly string[];
  network: "none" | "all";
}

export interface RemoteServerSpec extends SpecBase {
  transport: "http" | "sse";
  url: string;
  headers: Readonly<Record<string, string>>;
  /** OAuth client settings (a configured client id, a scope); without them OAuth still works by discovery. */
  oauth?: { clientId?: string; clientSecret?: string; scope?: string; clientMetadataUrl?: string };
}

export type ServerSpec = StdioServerSpec | RemoteServerSpec;

const includedFileSchema = z.looseObject({
  mcpServers: z.record(z.string().regex(/^[a-zA-Z0-9_-]+$/, "server names use [a-zA-Z0-9_-]"), mcpServerSchema).default({}),
});

export interface ResolveOptions {
  env?: NodeJS.ProcessEnv;
  /** The daemon config's own path; `mcpConfig` entries and `cwd`s resolve against its directory. */
  configPath?: string | null;
  readText?: (path: string) => Promise<string>;
}

/**
 * Included `.mcp.json` files are read in order, later files overriding earlier ones by server name;
 * the daemon config's own `mcpServers` override them all.
 */
export async function resolveServerSpecs(config: Pick<Config, "mcpServers" | "mcpConfig" | "sandbox">, options: ResolveOptions = {}): Promise<ServerSpec[]> {
  const env = options.env ?? process.env;
  const readText = options.readText ?? ((path: string) => readFile(path, "utf8"));
  const baseDir = options.configPath ? dirname(resolve(options.configPath)) : process.cwd();
  const origin = options.configPath ?? "(config)";
  const merged = new Map<string, { config: McpServerConfig; origin: string; dir: string }>();
  for (const entry of config.mcpConfig) {
    const path = isAbsolute(entry) ? entry : resolve(baseDir, entry);
    for (const [name, server] of Object.entries(await readIncluded(path, readText))) {
      merged.set(name, { config: server, origin: path, dir: dirname(path) });
    }
  }
  for (const [name, server] of Object.entries(config.mcpServers)) merged.set(name, { config: server, origin, dir: baseDir });
  // ToolSearch reads server names ignoring case (`mcp__forge` lists and selects `FORGE`'s tools too,
  // search/server-registry.ts): two servers that differ only by case would answer as one.
  const byFolded = new Map<string, string>();
  for (const [name, { origin: from }] of merged) {
    const other = byFolded.get(name.toLowerCase());
    if (other !== undefined) {
      throw new ConfigError(`MCP servers "${other}" (${merged.get(other)!.origin}) and "${name}" (${from}) differ only by case: ToolSearch reads server names ignoring case, so mcp__${name} would list and select both; rename one`);
    }
    byFolded.set(name.toLowerCase(), name);
  }
  const fallback = serverSandboxDefault(config, baseDir, env);
  return [...merged].map(([name, { config: server, origin: from, dir }]) => toSpec(name, server, from, dir, env, { fallback, ownAllowed: true }));
}

/**
 * Which sandbox a stdio server gets: the operator's default (`sandbox.servers`), and whether the
 * entry's own `sandbox` may replace it. A project file's entry may not: it could switch the
 * operator's sandbox off. Its own sandbox applies only where the operator set none (it can only
 * confine more then).
 */
export interface SandboxChoice {
  fallback?: ServerSandboxSpec;
  ownAllowed: boolean;
}

/** `sandbox.servers` of the daemon's config, paths resolved, or undefined. */
export function serverSandboxDefault(config: Pick<Config, "sandbox">, dir: string, env: NodeJS.ProcessEnv): ServerSandboxSpec | undefined {
  const servers = config.sandbox?.servers;
  return servers?.enabled ? resolveSandbox(servers, dir, env) : undefined;
}

/** The same default for project servers, read against the daemon config's directory. */
export function projectSandboxDefault(config: Pick<Config, "sandbox">, configPath: string | null | undefined, env: NodeJS.ProcessEnv): ServerSandboxSpec | undefined {
  return serverSandboxDefault(config, configPath ? dirname(resolve(configPath)) : process.cwd(), env);
}

function resolveSandbox(sandbox: { readable: readonly string[]; writable: readonly string[]; network: "none" | "all" }, dir: string, env: NodeJS.ProcessEnv): ServerSandboxSpec {
  const home = env.HOME || homedir();
  const absolute = (path: string) => resolve(dir, path === "~" ? home : path.startsWith("~/") ? `${home}${path.slice(1)}` : path);
  return { readable: sandbox.readable.map(absolute), writable: sandbox.writable.map(absolute), network: sandbox.network };
}

function chooseSandbox(server: Extract<McpServerConfig, { command: string }>, dir: string, env: NodeJS.ProcessEnv, choice: SandboxChoice): ServerSandboxSpec | undefined {
  const own = server.sandbox;
  if (choice.ownAllowed && own !== undefined) return own.enabled ? resolveSandbox(own, dir, env) : undefined;
  if (choice.fallback) return choice.fallback;
  return own?.enabled ? resolveSandbox(own, dir, env) : undefined;
}

/** One server's spec from its config entry; exported for the demo config and tests. */
export function toSpec(name: string, server: McpServerConfig, origin: string, dir: string, env: NodeJS.ProcessEnv, choice: SandboxChoice = { ownAllowed: true }): ServerSpec {
  const base: SpecBase = {
    name,
    startup: server.startup,
    ...(server.timeoutMs !== undefined && { timeoutMs: server.timeoutMs }),
    ...(server.maxConcurrent !== undefined && { maxConcurrent: server.maxConcurrent }),
    ...(server.maxQueued !== undefined && { maxQueued: server.maxQueued }),
    disabled: server.disabled,
    alwaysLoad: server.alwaysLoad,
    ...(server.defer !== "auto" && { defer: server.defer }),
    origin,
  };
  // A disabled server is never started, so its unset variables must not block the daemon.
  const expand = server.disabled ? (text: string) => text : (text: string, field: string) => expandText(text, env, { server: name, field });
  if (!("url" in server)) {
    const site = { server: name, field: "" };
    const cwd = server.cwd === undefined ? undefined : resolve(dir, expand(server.cwd, "cwd"));
    const sandbox = chooseSandbox(server, dir, env, choice);
    return {
      ...base,
      transport: "stdio",
      command: expand(server.command, "command"),
      args: server.disabled ? server.args : expandList(server.args, env, { ...site, field: "args" }),
      env: server.disabled ? server.env : expandRecord(server.env, env, { ...site, field: "env" }),
      ...(cwd !== undefined && { cwd }),
      ...(sandbox && { sandbox }),
    };
  }
  const url = expand(server.url, "url");
  if (!server.disabled) checkUrl(name, url);
  return {
    ...base,
    transport: server.type,
    url,
    headers: server.disabled ? server.headers : expandRecord(server.headers, env, { server: name, field: "headers" }),
    ...(server.oauth && { oauth: expandOAuth(server.oauth, expand) }),
  };
}

function expandOAuth(oauth: NonNullable<RemoteServerSpec["oauth"]>, expand: (text: string, field: string) => string): NonNullable<RemoteServerSpec["oauth"]> {
  return {
    ...(oauth.clientId !== undefined && { clientId: expand(oauth.clientId, "oauth.clientId") }),
    ...(oauth.clientSecret !== undefined && { clientSecret: expand(oauth.clientSecret, "oauth.clientSecret") }),
    ...(oauth.scope !== undefined && { scope: oauth.scope }),
    ...(oauth.clientMetadataUrl !== undefined && { clientMetadataUrl: oauth.clientMetadataUrl }),
  };
}

async function readIncluded(path: string, readText: (path: string) => Promise<string>): Promise<Record<string, McpServerConfig>> {
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    throw new ConfigError(`cannot read MCP config ${path} (named in mcpConfig): ${(error as Error).message}`);
  }
  const raw = parseConfigText(text, `MCP config ${path}`);
  const reserved = reservedServerNameProblem((raw as { mcpServers?: unknown } | null)?.mcpServers, `MCP config ${path} is invalid: mcpServers`);
  if (reserved) throw new ConfigError(reserved);
  const parsed = includedFileSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`MCP config ${path} is invalid:\n${describeIssues(parsed.error.issues, includedFileSchema)}`);
  return parsed.data.mcpServers;
}

function checkUrl(server: string, url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`MCP server "${server}": field "url" is not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigError(`MCP server "${server}": field "url" must be http or https, not ${parsed.protocol}`);
  }
}
