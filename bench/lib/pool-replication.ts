import type { EvalTool } from "./eval-data.ts";

/**
 * A pool of `size` tools grown from the real one: the real tools first, then renamed copies
 * (copy k of server S is server `S k`, so servers keep their real size). Below the real size,
 * an even sample across the file, so every source stays represented.
 */
export function replicatePool(tools: readonly EvalTool[], size: number): EvalTool[] {
  if (size <= tools.length) {
    const step = tools.length / size;
    return Array.from({ length: size }, (_, i) => tools[Math.floor(i * step)]!);
  }
  const pool: EvalTool[] = [...tools];
  const taken = new Set(tools.map((tool) => tool.name));
  for (let copy = 1; pool.length < size; copy++) {
    for (const tool of tools) {
      if (pool.length >= size) break;
      let copied = renamed(tool, copy);
      // A real name may already end like a copy's ("foo_v1" beside "foo"): pick another spelling.
      while (taken.has(copied.name)) copied = { ...copied, name: `${copied.name}_` };
      taken.add(copied.name);
      pool.push(copied);
    }
  }
  return pool;
}

function renamed(tool: EvalTool, copy: number): EvalTool {
  const server = `${tool.server} ${copy}`;
  if (tool.name.startsWith("mcp__")) {
    const rest = tool.name.slice(5);
    const separator = rest.indexOf("__");
    const name = `mcp__${rest.slice(0, separator)}_${copy}${rest.slice(separator)}`;
    return { ...tool, server, name };
  }
  return { ...tool, server, name: `${tool.name}_v${copy}` };
}
