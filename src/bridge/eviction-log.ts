/**
 * The HTTP bridge's eviction lines, summed up. One-shot clients (the MCP Inspector CLI, scripts)
 * never send DELETE, so at the session cap every new client evicts one: 200 of them printed 200
 * lines that said the same thing. The first eviction of a quiet spell is logged in full; the ones
 * after it within the window are counted and logged as one line when the window ends (or the
 * bridge stops). The count stays exact (`toolpool status` shows it).
 */
export interface EvictionLog {
  evicted(id: string, idleMs: number): void;
  /** Logs what is counted but not said yet (the bridge calls it when it stops). */
  flush(): void;
}

export function createEvictionLog(log: (line: string) => void, limit: number, windowMs = 60_000): EvictionLog {
  let unsaid = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (unsaid === 0) return;
    log(`toolpool mcp: evicted ${unsaid} more idle HTTP session${unsaid === 1 ? "" : "s"} to admit new clients (limit ${limit} sessions; clients that never send DELETE)`);
    unsaid = 0;
  };
  return {
    evicted(id, idleMs) {
      if (timer !== undefined) {
        unsaid++;
        return;
      }
      log(
        `toolpool mcp: evicted HTTP session ${id} (idle ${Math.round(idleMs)} ms, least recently used) to admit a new client (limit ${limit} sessions); ` +
          `further evictions are summed up every ${Math.round(windowMs / 1000)} s`,
      );
      timer = setTimeout(flush, windowMs);
      timer.unref?.();
    },
    flush,
  };
}
