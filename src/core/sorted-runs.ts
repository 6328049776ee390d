/**
 * The MCP pool's tools in name order, sorting again only the servers whose list changed: the pool
 * is re-assembled on every change of any server, and sorting 100k tools each time was ~40–55 ms
 * of the serving thread (docs/search.md). A server's tools share the `mcp__server__` prefix, so
 * the servers' sorted lists are name ranges that do not overlap, and laid end to end in order of
 * their first names they are the whole pool in name order. When two ranges do overlap (a server
 * name that is a prefix of another's followed by `__`, a name listed by two servers), the lists
 * are handed over in server order as before, for assemblePool's own sort.
 */
import { byName } from "../pool/assemble.ts";
import type { Tool } from "../tool/tool.ts";

export class SortedRuns {
  /** Each server's list (by identity: mcp-pool.ts makes a new array when it changes) in name order. */
  readonly #sorted = new WeakMap<readonly Tool[], readonly Tool[]>();

  of(runs: readonly (readonly Tool[])[]): readonly Tool[] {
    const sorted: (readonly Tool[])[] = [];
    for (const run of runs) {
      if (run.length === 0) continue;
      let inOrder = this.#sorted.get(run);
      if (inOrder === undefined) {
        inOrder = byName(run);
        this.#sorted.set(run, inOrder);
      }
      sorted.push(inOrder);
    }
    sorted.sort((a, b) => (a[0]!.name < b[0]!.name ? -1 : a[0]!.name > b[0]!.name ? 1 : 0));
    for (let i = 1; i < sorted.length; i++) {
      // Strictly before: a name in two lists would make the order between them the servers' order.
      if (!(sorted[i - 1]!.at(-1)!.name < sorted[i]![0]!.name)) return runs.flat();
    }
    return sorted.flat();
  }
}
