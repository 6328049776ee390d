/**
 * Names already suggested in a session, so prefetch never suggests a tool twice. Bounded: past 500
 * names the oldest are dropped until 400 remain (insertion order is age; a Set keeps it).
 */
export const SUGGESTED_MAX = 500;
export const SUGGESTED_TRIM_TO = 400;

export class SuggestedSet {
  readonly #names = new Set<string>();

  constructor(
    private readonly max = SUGGESTED_MAX,
    private readonly trimTo = SUGGESTED_TRIM_TO,
  ) {}

  has(name: string): boolean {
    return this.#names.has(name);
  }

  add(name: string): void {
    this.#names.add(name);
    if (this.#names.size <= this.max) return;
    let excess = this.#names.size - this.trimTo;
    for (const oldest of this.#names) {
      if (excess-- <= 0) break;
      this.#names.delete(oldest);
    }
  }

  get size(): number {
    return this.#names.size;
  }

  names(): string[] {
    return [...this.#names];
  }
}
