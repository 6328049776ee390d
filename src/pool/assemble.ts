/**
 * Pool assembly: the one ordered, de-duplicated list of tools a daemon serves. Built-ins come first,
 * sorted by name, then MCP tools sorted by name, so that a server connecting, changing or leaving
 * never moves a built-in (a reordered tools array breaks the prompt cache). Deny rules that name a
 * tool or a server remove it before any model sees it. Name collisions are reported, never hidden.
 */
import { applyEagerPolicy, type EagerPolicy } from "../deferral/eager-policy.ts";
import { outrightDenial } from "../permissions/rules.ts";
import type { Tool } from "../tool/tool.ts";

export interface Collision {
  name: string;
  /** The tool that kept the name, then the ones that lost it. */
  kept: string;
  dropped: string[];
}

export interface Pool {
  readonly tools: readonly Tool[];
  readonly collisions: readonly Collision[];
  /** By name or alias. */
  get(name: string): Tool | undefined;
  /** Tools the tool-count guard deferred (eager-policy.ts); absent without a policy. */
  readonly guarded?: readonly string[];
}

export interface PoolSources {
  builtins: readonly Tool[];
  mcpTools: readonly Tool[];
  deny?: readonly string[];
  /** The operator's per-tool `defer` and the tool-count guard, applied after ordering. */
  eager?: EagerPolicy;
}

export function assemblePool({ builtins, mcpTools, deny = [], eager }: PoolSources): Pool {
  // The rules parsed once per assembly (a pool of 100k tools asked each rule 100k times).
  const denied = deny.length > 0 ? outrightDenial(deny) : undefined;
  const allowed = (tools: readonly Tool[]) => (denied ? tools.filter((tool) => !denied(tool)) : tools);
  const tools: Tool[] = [];
  const index = new Map<string, Tool>();
  const collisions = new Map<string, Collision>();
  // Each part is in name order, so a name twice in it is twice in a row: one map operation per
  // tool, not two (a pool of 100k tools is re-assembled on every change of any server).
  const add = (part: readonly Tool[], taken: (name: string) => boolean) => {
    let previous: string | undefined;
    for (const tool of part) {
      const name = tool.name;
      if (name === previous || taken(name)) {
        const collision = collisions.get(name) ?? { name, kept: describe(index.get(name)!), dropped: [] };
        collision.dropped.push(describe(tool));
        collisions.set(name, collision);
      } else {
        index.set(name, tool);
        tools.push(tool);
      }
      previous = name;
    }
  };
  add(byName(allowed(builtins)), () => false);
  const builtinNames = new Set(index.keys());
  add(byName(allowed(mcpTools)), (name) => builtinNames.has(name));
  const policed = eager ? applyEagerPolicy(tools, eager) : undefined;
  if (policed) {
    // The policy keeps the order and returns most tools as they were: only the ones it changed are re-set.
    for (let i = 0; i < tools.length; i++) {
      const tool = policed.tools[i]!;
      if (tool === tools[i]) continue;
      tools[i] = tool;
      index.set(tool.name, tool);
    }
  }
  const aliases = new Map<string, Tool>();
  for (const tool of tools) {
    for (const alias of tool.aliases) if (!index.has(alias) && !aliases.has(alias)) aliases.set(alias, tool);
  }
  return {
    tools,
    collisions: [...collisions.values()],
    get: (name) => index.get(name) ?? aliases.get(name),
    ...(policed && { guarded: policed.guarded }),
  };
}

/** The tools in name order (a stable sort: equal names keep their order); the same array when already in order. */
export function byName(tools: readonly Tool[]): readonly Tool[] {
  // Already in order (a pool re-assembled from sorted parts): one pass instead of a sort.
  let sorted = true;
  for (let i = 1; i < tools.length && sorted; i++) sorted = !(tools[i - 1]!.name > tools[i]!.name);
  return sorted ? tools : [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function describe(tool: Tool): string {
  return tool.mcpInfo ? `${tool.mcpInfo.server}/${tool.mcpInfo.tool}` : `built-in ${tool.name}`;
}
