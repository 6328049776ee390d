/**
 * The operator's say over what is eager (in every request's tools array) and what waits behind
 * ToolSearch, applied to the pool before any session sees it:
 *
 * - `defer` per tool (config `defer: {"<pool name>": "always" | "never" | "auto"}`) beats
 * - `defer` per server (an `mcpServers` entry's `defer`), which beats
 * - the server's own word (`_meta["anthropic/alwaysLoad"]`, the entry's `alwaysLoad` list) and a
 *   built-in's `shouldDefer` ("auto": today's rule, is-deferred.ts).
 *
 * Then the guard: a provider refuses a request whose tools array is longer than its hard limit (128
 * for some, 512 for others), so however the settings above add up, at most `maxTools` minus the
 * meta-tools' room are eager. The excess — the last in pool order, so built-ins keep their place
 * and MCP tools go by name — is deferred instead, and named so it can be reported. The same guard
 * holds eager MCP tools to MAX_EAGER_MCP_CHARS of definitions (description and input schema): each
 * schema may be 256K characters, and a server that asks for its own tools to be eager
 * (`anthropic/alwaysLoad`) made every request's tools array 15 MB with 60 of them. A session cannot
 * change any of this: the policy is the daemon config's alone.
 */
import type { Tool } from "../tool/tool.ts";
import { isDeferredTool } from "./is-deferred.ts";

export type DeferSetting = "always" | "never" | "auto";

/** The default tool-count limit: the lowest hard limit among the providers served. */
export const DEFAULT_MAX_TOOLS_IN_ARRAY = 128;
/** Room kept in the array for ToolSearch, ExecuteExtraTool and StructuredOutput. */
export const META_TOOL_ROOM = 3;
/**
 * Bytes of eager MCP tool definitions (description and input schema JSON, as definitionChars counts
 * them) a tools array carries at most: ~500k tokens, past any model's context, and a quarter of the
 * 8 MiB line a client reads its assembled request in. Built-ins are the daemon's own and small; they
 * are not counted.
 */
export const MAX_EAGER_MCP_CHARS = 2 * 1024 * 1024;

export interface EagerPolicy {
  /** By pool name. */
  readonly tools: ReadonlyMap<string, DeferSetting>;
  /** By MCP server name (config spelling). */
  readonly servers: ReadonlyMap<string, DeferSetting>;
  /** The provider's hard limit on the tools array. */
  readonly maxTools: number;
  /** Eager MCP tools' definitions in characters; default MAX_EAGER_MCP_CHARS. */
  readonly maxEagerMcpChars?: number;
}

export interface EagerOutcome {
  readonly tools: readonly Tool[];
  /** Tools the guard deferred (they would have been eager), in pool order. */
  readonly guarded: readonly string[];
  /** How many tools were eager before the guard. */
  readonly eagerBefore: number;
  /** How many the guard let stay eager. */
  readonly eagerLimit: number;
}

/** The setting that decides a tool, and where it came from; "auto" when the operator said nothing. */
export function deferSettingFor(tool: Pick<Tool, "name" | "mcpInfo">, policy: Pick<EagerPolicy, "tools" | "servers">): { setting: DeferSetting; via: "tool" | "server" | "default" } {
  const own = policy.tools.get(tool.name);
  if (own !== undefined && own !== "auto") return { setting: own, via: "tool" };
  const server = tool.mcpInfo !== undefined ? policy.servers.get(tool.mcpInfo.server) : undefined;
  if (own === undefined && server !== undefined && server !== "auto") return { setting: server, via: "server" };
  return { setting: "auto", via: own === "auto" ? "tool" : "default" };
}

/** The tools with the operator's settings applied and the guard enforced; tools not changed are the same objects. */
export function applyEagerPolicy(tools: readonly Tool[], policy: EagerPolicy): EagerOutcome {
  const set = tools.map((tool) => withSetting(tool, deferSettingFor(tool, policy).setting));
  const eagerLimit = Math.max(0, policy.maxTools - META_TOOL_ROOM);
  const charLimit = policy.maxEagerMcpChars ?? MAX_EAGER_MCP_CHARS;
  let eager = 0;
  let eagerBefore = 0;
  let mcpChars = 0;
  const guarded: string[] = [];
  const out = set.map((tool) => {
    if (isDeferredTool(tool)) return tool;
    eagerBefore++;
    const chars = tool.mcpInfo === undefined ? 0 : definitionChars(tool);
    if (eager < eagerLimit && mcpChars + chars <= charLimit) {
      eager++;
      mcpChars += chars;
      return tool;
    }
    guarded.push(tool.name);
    return deferred(tool);
  });
  return { tools: out, guarded, eagerBefore, eagerLimit };
}

/**
 * A tool's definition as the guards count it: its description and its input schema as JSON, in the
 * UTF-8 bytes the line carries them in. Counted in characters, a schema of CJK text (three bytes a
 * character) went out at three times its count: 16 tools of 250K-character schemas, inside the
 * 4 Mi the standard array allowed, made a 12 MB request, over the 8 MiB line a client reads.
 */
export function definitionChars(tool: Pick<Tool, "description" | "inputJSONSchema">): number {
  return Buffer.byteLength(JSON.stringify(tool.description)) + Buffer.byteLength(JSON.stringify(tool.inputJSONSchema));
}

function withSetting(tool: Tool, setting: DeferSetting): Tool {
  if (setting === "never") return tool.alwaysLoad ? tool : { ...tool, alwaysLoad: true };
  if (setting === "always") return isDeferredTool(tool) && !tool.alwaysLoad ? tool : deferred(tool);
  return tool;
}

/** An MCP tool without alwaysLoad is deferred; a built-in needs shouldDefer too. */
function deferred(tool: Tool): Tool {
  return { ...tool, alwaysLoad: false, shouldDefer: true };
}
