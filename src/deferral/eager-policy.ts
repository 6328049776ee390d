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
 * meta-tools' room are eager. Built-ins keep their place, then the operator's eager MCP tools, then
 * those only their server asked for (guardRank); the excess is deferred instead, and named so it can
 * be reported. The same guard
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

type Decided = { setting: DeferSetting; via: "tool" | "server" | "default" };

/**
 * The setting that decides a tool, and where it came from; "auto" when the operator said nothing.
 * The server's is the policy's map, else the config entry's `defer` the tool was built with.
 */
export function deferSettingFor(tool: Pick<Tool, "name" | "mcpInfo">, policy: Pick<EagerPolicy, "tools" | "servers">): Decided {
  const own = policy.tools.get(tool.name);
  if (own !== undefined && own !== "auto") return { setting: own, via: "tool" };
  const server = tool.mcpInfo !== undefined ? (policy.servers.get(tool.mcpInfo.server) ?? tool.mcpInfo.load?.entryDefer) : undefined;
  if (own === undefined && server !== undefined && server !== "auto") return { setting: server, via: "server" };
  return { setting: "auto", via: own === "auto" ? "tool" : "default" };
}

/**
 * Which eager tools the guard keeps first: built-ins (the daemon's own core), then MCP tools the
 * operator made eager (a `defer: never`, the entry's `alwaysLoad` list), then those only their
 * server asked for (`_meta["anthropic/alwaysLoad"]`) — in pool order within each. In pool order
 * alone, a server named "aaa" marking 200 of its tools alwaysLoad pushed every tool the operator
 * had named out of the array.
 */
function guardRank(tool: Tool, decided: Decided): number {
  if (tool.mcpInfo === undefined) return 0;
  if (decided.setting === "never" || tool.mcpInfo.load?.alwaysLoad === "config") return 1;
  return 2;
}

/** The tools with the operator's settings applied and the guard enforced; tools not changed are the same objects. */
export function applyEagerPolicy(tools: readonly Tool[], policy: EagerPolicy): EagerOutcome {
  const decided = tools.map((tool) => deferSettingFor(tool, policy));
  const out = tools.map((tool, i) => withSetting(tool, decided[i]!));
  const eagerLimit = Math.max(0, policy.maxTools - META_TOOL_ROOM);
  const charLimit = policy.maxEagerMcpChars ?? MAX_EAGER_MCP_CHARS;
  let eager = 0;
  let eagerBefore = 0;
  let mcpChars = 0;
  const cut = new Set<number>();
  for (const rank of [0, 1, 2]) {
    out.forEach((tool, i) => {
      if (isDeferredTool(tool) || guardRank(tool, decided[i]!) !== rank) return;
      eagerBefore++;
      const chars = tool.mcpInfo === undefined ? 0 : definitionChars(tool);
      if (eager < eagerLimit && mcpChars + chars <= charLimit) {
        eager++;
        mcpChars += chars;
      } else cut.add(i);
    });
  }
  const guarded: string[] = [];
  for (const i of [...cut].sort((a, b) => a - b)) {
    guarded.push(out[i]!.name);
    out[i] = deferred(out[i]!);
  }
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

function withSetting(tool: Tool, decided: Decided): Tool {
  if (decided.setting === "never") return tool.alwaysLoad ? tool : { ...tool, alwaysLoad: true };
  if (decided.setting === "always") return isDeferredTool(tool) && !tool.alwaysLoad ? tool : deferred(tool);
  // A tool's own `auto` is the usual rule, whatever its entry's `defer` made of it when it was built.
  if (decided.via === "tool" && tool.mcpInfo !== undefined) {
    const usual = tool.mcpInfo.load?.alwaysLoad !== undefined;
    if (tool.alwaysLoad !== usual) return usual ? { ...tool, alwaysLoad: true } : deferred(tool);
  }
  return tool;
}

/** An MCP tool without alwaysLoad is deferred; a built-in needs shouldDefer too. */
function deferred(tool: Tool): Tool {
  return { ...tool, alwaysLoad: false, shouldDefer: true };
}
