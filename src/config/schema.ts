/**
 * The daemon's config file, validated field by field so a mistake is refused with the field named.
 * Unknown keys are errors too: a misspelt key silently ignored is a setting silently lost.
 *
 * The nested shapes are `z.lazy`: each is built when a config first has that key, not at start-up
 * (a daemon without a config file parses `{}`, and building every shape was most of its zod cost).
 * issue-text.ts looks through the lazy wrappers when it names the known keys.
 */
import { z } from "zod";
import { permissionsSchema } from "../protocol/methods.ts";
import { MAX_BUFFER_BUDGET_BYTES, MIN_BUFFER_BUDGET_BYTES } from "../protocol/limits.ts";

/**
 * A stdio server's sandbox (docs/operations.md "Security model"): it sees the system's program and
 * library dirs and its own program, plus `readable` (read-only) and `writable`; nothing else of the
 * file system. `enabled: false` on a server of the daemon's config opts it out of `sandbox.servers`.
 */
export const serverSandboxSchema = () =>
  z.strictObject({
    enabled: z.boolean().default(true),
    readable: z.array(z.string().min(1).max(4096)).max(256).default([]),
    writable: z.array(z.string().min(1).max(4096)).max(256).default([]),
    network: z.enum(["none", "all"], { message: 'expected "none" or "all"' }).default("none"),
  });

/** The tools a session gets by its delivery, not by `defer` (deferral/meta-tools.ts, builtin/structured-output.ts). */
const SESSION_META_TOOLS: readonly string[] = ["ToolSearch", "ExecuteExtraTool", "StructuredOutput"];

/**
 * A `defer` key that can never name a tool, whatever servers come and go: a server's name
 * (`mcp__github` — pool names are `mcp__<server>__<tool>`) or a meta-tool. Either was logged as
 * "names no tool", a setting silently lost where the operator meant a whole server or the search tool.
 */
export function deferKeyProblem(key: string): string | undefined {
  if (SESSION_META_TOOLS.includes(key)) return `${key} is a meta-tool: a session has it by its delivery (or its outputSchema), never deferred and never made eager by defer`;
  if (key.startsWith("mcp__") && !key.slice(5).includes("__")) {
    const server = key.slice(5);
    return `${JSON.stringify(key)} names an MCP server, not a tool (a tool's pool name is mcp__${server}__<tool>): to decide for all of its tools, set mcpServers.${server}.defer`;
  }
  return undefined;
}

const stdioServer = () =>
  z.strictObject({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    startup: z.enum(["eager", "lazy"]).default("eager"),
    timeoutMs: z.number().int().positive().optional(),
    maxConcurrent: z.number().int().min(1).max(1_000).optional(),
    maxQueued: z.number().int().min(0).max(10_000).optional(),
    disabled: z.boolean().default(false),
    alwaysLoad: z.array(z.string()).default([]),
    /** always: every tool of the server deferred (its alwaysLoad ignored); never: every tool eager; auto: the server's own word. */
    defer: z.enum(["always", "never", "auto"]).default("auto"),
    sandbox: serverSandboxSchema().optional(),
  });

/** OAuth for a remote server: all optional (discovery and dynamic registration find the rest). */
const oauthSettings = () =>
  z.strictObject({
    clientId: z.string().min(1).max(500).optional(),
    clientSecret: z.string().min(1).max(2000).optional(),
    scope: z.string().min(1).max(2000).optional(),
    clientMetadataUrl: z.string().superRefine(checkClientMetadataUrl).optional(),
  });

/** A Client ID Metadata Document's URL is the client id itself: bounded, like the id. */
export const MAX_CLIENT_METADATA_URL = 500;

/**
 * Where the operator hosts toolpool's Client ID Metadata Document. The draft's rules for a client
 * id URL: https, a path, no fragment, no user or password; the authorization server fetches it.
 */
function checkClientMetadataUrl(value: string, context: z.RefinementCtx): void {
  const refuse = (why: string) => context.addIssue({ code: "custom", message: `the client metadata URL ${why}` });
  if (value.length > MAX_CLIENT_METADATA_URL) return refuse(`is ${value.length} characters; at most ${MAX_CLIENT_METADATA_URL}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse(`${JSON.stringify(value)} is not a URL`);
  }
  if (url.protocol !== "https:") return refuse(`must be https (it is the client id an authorization server fetches), not ${url.protocol.replace(/:$/, "")}`);
  if (url.pathname === "/" || url.pathname === "") return refuse("needs a path to the document, as in https://example.com/toolpool/client.json");
  if (url.hash || value.includes("#")) return refuse("may not have a fragment");
  if (url.username || url.password) return refuse("may not carry a user or password");
}

const remoteServer = () =>
  z.strictObject({
    type: z.enum(["http", "sse"]),
    url: z.string().min(1),
    headers: z.record(z.string(), z.string()).default({}),
    oauth: oauthSettings().optional(),
    startup: z.enum(["eager", "lazy"]).default("eager"),
    timeoutMs: z.number().int().positive().optional(),
    maxConcurrent: z.number().int().min(1).max(1_000).optional(),
    maxQueued: z.number().int().min(0).max(10_000).optional(),
    disabled: z.boolean().default(false),
    alwaysLoad: z.array(z.string()).default([]),
    /** always: every tool of the server deferred (its alwaysLoad ignored); never: every tool eager; auto: the server's own word. */
    defer: z.enum(["always", "never", "auto"]).default("auto"),
  });

/**
 * Chosen by `type` (absent or "stdio": a command; "http" / "sse": a URL), so a mistake is reported
 * inside the right shape with its field named (`mcpServers.x.startup`), not as "Invalid input" for
 * the whole entry.
 */
export const mcpServerSchema = z.lazy(() => z.discriminatedUnion("type", [stdioServer(), remoteServer()]));

/** A tool name, `mcp__server`, a glob (`*`, `?`) or `group:NAME`. */
const toolEntry = () => z.string().min(1).max(300);

export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  workspaceRoots: z.array(z.string().min(1)).optional(),
  toolSearch: z.string().regex(/^(true|false|auto(:\d{1,3})?)$/, "expected true, false, auto or auto:N").optional(),
  delivery: z.enum(["auto", "native", "proxy", "mid-conversation", "standard"]).optional(),
  /** mid-conversation delivery: add tools by value (the inline-tools beta). */
  inlineTools: z.boolean().optional(),
  announcements: z.enum(["list", "delta", "servers"]).optional(),
  permissions: permissionsSchema
    .extend({
      /** Lets a session choose any mode, `bypass` included (src/permissions/ceiling.ts). */
      allowSessionBypass: z.boolean().optional(),
    })
    .optional(),
  mcpServers: z.record(z.string().regex(/^[a-zA-Z0-9_-]+$/, "server names use [a-zA-Z0-9_-]"), mcpServerSchema).default({}),
  mcpConfig: z.array(z.string()).default([]),
  flags: z
    .lazy(() =>
      z.strictObject({
        file: z.string().optional(),
        apiHost: z.string().optional(),
        clientKey: z.string().optional(),
        pollIntervalMs: z.number().int().positive().optional(),
      }),
    )
    .optional(),
  remoteTriggers: z
    .lazy(() =>
      z.record(
        z.string(),
        z.strictObject({
          url: z.string().min(1),
          method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).default("POST"),
          headers: z.record(z.string(), z.string()).default({}),
        }),
      ),
    )
    .default({}),
  webFetch: z
    .lazy(() => z.strictObject({ allowPrivateAddresses: z.boolean().default(false), allowHosts: z.array(z.string()).default([]) }))
    .optional(),
  /** Connection ceilings (docs/operations.md "Resource limits"); tunable only inside hard bounds. */
  connections: z
    .lazy(() =>
      z.strictObject({
        partialLineTimeoutMs: z.number().int().min(100).max(600_000).optional(),
        bufferBudgetBytes: z.number().int().min(MIN_BUFFER_BUDGET_BYTES).max(MAX_BUFFER_BUDGET_BYTES).optional(),
      }),
    )
    .optional(),
  /** Per tool (pool name): always deferred, never deferred, or auto; beats the server's `defer` (src/deferral/eager-policy.ts). */
  defer: z
    .lazy(() =>
      z
        .record(z.string().min(1).max(300), z.enum(["always", "never", "auto"]))
        .refine((entries) => Object.keys(entries).length <= 10_000, "at most 10000 entries")
        .superRefine((entries, ctx) => {
          for (const key of Object.keys(entries)) {
            const problem = deferKeyProblem(key);
            if (problem !== undefined) ctx.addIssue({ code: "custom", path: [key], message: problem });
          }
        }),
    )
    .default({}),
  /** The provider's hard limit on the tools array: eager tools past it (less the meta-tools' room) are deferred. */
  maxToolsInArray: z.number().int().min(8).max(4_096).default(128),
  /**
   * The kernel sandbox for Bash (docs/operations.md "Security model"): `auto` confines where the
   * system can and says so where it cannot, `required` refuses Bash without it, `off` never confines.
   * A string is the mode alone.
   */
  sandbox: z
    .lazy(() =>
      z.preprocess(
        (value) => (typeof value === "string" ? { mode: value } : value),
        z.strictObject({
          mode: z.enum(["auto", "required", "off"], { message: 'expected "auto", "required" or "off"' }).default("auto"),
          network: z.enum(["none", "all"], { message: 'expected "none" (no network in Bash) or "all"' }).default("none"),
          /** The sandbox every stdio MCP server of this config runs in, unless its entry has its own. */
          servers: serverSandboxSchema().optional(),
        }),
      ),
    )
    .optional(),
  logLevel: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** OpenTelemetry metrics (docs/operations.md); off unless `enabled` or TOOLPOOL_TELEMETRY=1. */
  telemetry: z
    .lazy(() =>
      z.strictObject({
        enabled: z.boolean().default(false),
        endpoint: z.string().url().optional(),
        protocol: z.enum(["http/json", "http/protobuf"]).optional(),
        exportIntervalMs: z.number().int().min(100).max(3_600_000).optional(),
      }),
    )
    .optional(),
  /** Named sets of tool entries (names, `mcp__server`, globs, other groups), on top of the built-in groups. */
  toolGroups: z
    .lazy(() => z.record(z.string().regex(/^group:[a-zA-Z0-9_-]{1,64}$/, "group names look like group:NAME"), z.array(toolEntry()).max(1000)))
    .default({}),
  /** What a session that picks the profile sees: `include` (everything when empty), minus `exclude`. */
  profiles: z
    .lazy(() =>
      z.record(
        z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "profile names use [a-zA-Z0-9_-], at most 64 characters"),
        z.strictObject({ include: z.array(toolEntry()).max(1000).default([]), exclude: z.array(toolEntry()).max(1000).default([]) }),
      ),
    )
    .default({}),
});

export type Config = z.output<typeof configSchema>;
export type McpServerConfig = z.output<typeof mcpServerSchema>;

/**
 * `__proto__` cannot be a server name: a JavaScript object does not keep it as data everywhere a
 * config passes (the schema drops it without a word; an assignment makes it a prototype). So it is
 * refused by name, before the schema sees it. `constructor`, `toString` and the like are ordinary.
 */
export const RESERVED_SERVER_NAME = "__proto__";

/** The message for a `mcpServers` (or `servers`) object that holds the reserved name; undefined when it does not. */
export function reservedServerNameProblem(servers: unknown, where: string): string | undefined {
  if (typeof servers !== "object" || servers === null || !Object.hasOwn(servers, RESERVED_SERVER_NAME)) return undefined;
  return `${where}: "${RESERVED_SERVER_NAME}" cannot be a server name (JavaScript reserves it); rename that server`;
}
