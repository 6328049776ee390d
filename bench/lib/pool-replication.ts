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
  for (let copy = 1; pool.length < size; copy++) {
    for (const tool of tools) {
      if (pool.length >= size) break;
      pool.push(renamed(tool, copy));
    }
  }
  return pool;
}

function renamed(tool: EvalTool, copy: number): EvalTool {
  const server = `${tool.server} ${copy}`;
  if (tool.name.startsWith("mcp__")) {
    const tail = tool.name.slice(5 + tool.server.length);
    return { ...tool, server, name: `mcp__${tool.server}_${copy}${tail}` };
  }
  return { ...tool, server, name: `${tool.name}_v${copy}` };
}
