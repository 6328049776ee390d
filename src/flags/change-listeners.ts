/** The `onChange` subscribers of a flags implementation; one throwing listener cannot starve the rest. */
import type { Logger } from "../runtime/logger.ts";

export class ChangeListeners {
  readonly #listeners = new Set<() => void>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  add(listener: () => void): () => void {
    // Wrapped, so the same function subscribed twice gets two independent subscriptions.
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  emit(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        this.#logger.error("flags change listener failed", { error: (error as Error).message });
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
