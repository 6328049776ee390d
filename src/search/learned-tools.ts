/**
 * Which tools' words the daemon's warm-up learns ahead of use (ToolSearchIndex.learnWords): at
 * most MAX_LEARNED_TOOLS, taken at an even stride through the pool so every part of it is read.
 * The word table bounds what is kept (QueryWords.learn); this bounds the work and the garbage of
 * reading texts (at 100k tools, reading every tool's texts raised the peak RSS by ~20 MiB and
 * took ~1.4 s of wall time in `search-scale`, for words the first 7k tools already held).
 */
export const MAX_LEARNED_TOOLS = 8192;

export function toolsToLearn<T>(tools: readonly T[], max = MAX_LEARNED_TOOLS): readonly T[] {
  if (tools.length <= max) return tools;
  const step = tools.length / max;
  return Array.from({ length: max }, (_, i) => tools[Math.floor(i * step)]!);
}
