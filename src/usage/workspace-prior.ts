/**
 * What ranking learns from one workspace's use: how often each tool was called (successfully), and
 * which tool followed which. Seeded from the database when the workspace's first session opens,
 * then kept current from the calls themselves. Bounded like the tables it mirrors.
 */
import { MAX_PRIOR_FOLLOWS, MAX_PRIOR_TERMS, MAX_PRIOR_TOOLS } from "./usage-schema.ts";
import type { WorkspaceAggregates } from "./usage-store.ts";

/** A follower must have followed this often, and make up this share of what followed, to be suggested. */
export const MIN_FOLLOW_COUNT = 2;
export const MIN_FOLLOW_SHARE = 0.25;
/** A tool must have been called this often in a workspace to be promoted to its sessions' core set. */
export const MIN_PROMOTE_CALLS = 3;

export class WorkspacePrior {
  readonly #uses = new Map<string, number>();
  readonly #follows = new Map<string, Map<string, number>>();
  /** term → tool → how often a search with the term led to a call of the tool. */
  readonly #terms = new Map<string, { total: number; tools: Map<string, number> }>();
  #followCount = 0;
  #termCount = 0;

  constructor(seed?: WorkspaceAggregates) {
    for (const row of seed?.uses ?? []) this.#uses.set(row.tool, row.calls);
    for (const row of seed?.follows ?? []) this.#addFollow(row.from, row.to, row.count);
    for (const row of seed?.terms ?? []) this.#addTerm(row.term, row.tool, row.count);
  }

  get size(): number {
    return this.#uses.size;
  }

  calls(tool: string): number {
    return this.#uses.get(tool) ?? 0;
  }

  /** One successful call of `tool`, after `previous` (the session's last tool) if any. */
  used(tool: string, previous: string | null): void {
    const known = this.#uses.get(tool);
    if (known !== undefined || this.#uses.size < MAX_PRIOR_TOOLS) this.#uses.set(tool, (known ?? 0) + 1);
    if (previous !== null && previous !== tool) this.#addFollow(previous, tool, 1);
  }

  /** A search with these terms was followed by a call of `tool`. */
  searched(terms: readonly string[], tool: string): void {
    for (const term of terms) this.#addTerm(term, tool, 1);
  }

  /**
   * How strongly this workspace's past searches with these words led to `tool`, in [0, 1]: the
   * mean over the query's terms of the share of that term's searches that led to the tool.
   */
  affinity(tool: string, terms: readonly string[]): number {
    if (terms.length === 0) return 0;
    let sum = 0;
    for (const term of terms) {
      const entry = this.#terms.get(term);
      const count = entry?.tools.get(tool);
      if (entry && count) sum += count / entry.total;
    }
    return sum / terms.length;
  }

  /** Tools that often came right after `tool`, most often first. */
  followers(tool: string, limit: number): string[] {
    const after = this.#follows.get(tool);
    if (!after) return [];
    let total = 0;
    for (const count of after.values()) total += count;
    return [...after]
      .filter(([, count]) => count >= MIN_FOLLOW_COUNT && count / total >= MIN_FOLLOW_SHARE)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, limit)
      .map(([name]) => name);
  }

  /** The most called tools that pass `eligible`, with at least MIN_PROMOTE_CALLS calls. */
  mostUsed(limit: number, eligible: (tool: string) => boolean): string[] {
    if (limit <= 0) return [];
    return [...this.#uses]
      .filter(([tool, count]) => count >= MIN_PROMOTE_CALLS && eligible(tool))
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, limit)
      .map(([tool]) => tool);
  }

  #addFollow(from: string, to: string, count: number): void {
    let after = this.#follows.get(from);
    if (!after) {
      if (this.#followCount >= MAX_PRIOR_FOLLOWS) return;
      after = new Map();
      this.#follows.set(from, after);
    }
    const known = after.get(to);
    if (known === undefined) {
      if (this.#followCount >= MAX_PRIOR_FOLLOWS) return;
      this.#followCount++;
    }
    after.set(to, (known ?? 0) + count);
  }

  #addTerm(term: string, tool: string, count: number): void {
    let entry = this.#terms.get(term);
    if (!entry) {
      if (this.#termCount >= MAX_PRIOR_TERMS) return;
      entry = { total: 0, tools: new Map() };
      this.#terms.set(term, entry);
    }
    const known = entry.tools.get(tool);
    if (known === undefined) {
      if (this.#termCount >= MAX_PRIOR_TERMS) return;
      this.#termCount++;
    }
    entry.tools.set(tool, (known ?? 0) + count);
    entry.total += count;
  }
}
