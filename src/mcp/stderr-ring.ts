/**
 * The last few KiB of a server's stderr, kept as lines. Servers log freely (some flood), so this is
 * a ring: oldest lines go first, a single giant line is cut, and the total stays under the budget.
 * It survives restarts of the server, so the reason for the last crash is still there to read.
 */
const MAX_LINE_CHARS = 4_096;
/** Lines the pool adds itself ("process 123 exited with code 1") start with this. */
export const OWN_NOTE = "[toolpool]";

/** The note that opens each process's lines: a failure reason quotes only the last process's stderr. */
export function startedNote(pid: number): string {
  return `${OWN_NOTE} process ${pid} started`;
}
const STARTED = /^\[toolpool\] process \d+ started$/;

export class StderrRing {
  readonly #lines: string[] = [];
  #chars = 0;
  #partial = "";
  #dropped = 0;
  readonly #decoder = new TextDecoder();

  constructor(private readonly budgetChars: number) {}

  /** Feeds raw bytes; complete lines are kept, a trailing partial line waits for its newline. */
  push(chunk: Uint8Array): void {
    const text = this.#partial + this.#decoder.decode(chunk, { stream: true });
    const parts = text.split("\n");
    this.#partial = parts.pop() ?? "";
    if (this.#partial.length > MAX_LINE_CHARS) {
      this.add(this.#partial);
      this.#partial = "";
    }
    for (const line of parts) this.add(line);
  }

  /** Adds one line (also used for the pool's own notes, e.g. "exited with code 1"). */
  add(line: string): void {
    const trimmed = line.replace(/\r$/, "");
    const kept = trimmed.length > MAX_LINE_CHARS ? `${trimmed.slice(0, MAX_LINE_CHARS)} … [line cut]` : trimmed;
    this.#lines.push(kept);
    this.#chars += kept.length + 1;
    while (this.#chars > this.budgetChars && this.#lines.length > 1) {
      this.#chars -= this.#lines.shift()!.length + 1;
      this.#dropped++;
    }
  }

  /** Flushes a partial last line (the process ended without a newline). */
  end(): void {
    if (this.#partial) this.add(this.#partial);
    this.#partial = "";
  }

  lines(): string[] {
    const head = this.#dropped > 0 ? [`[${this.#dropped} earlier lines dropped]`] : [];
    return [...head, ...this.#lines, ...(this.#partial ? [this.#partial] : [])];
  }

  /**
   * The last `count` non-empty lines the most recent process wrote (not the pool's own notes, not
   * an earlier attempt's), joined, for an error message.
   */
  tail(count: number): string {
    const last: string[] = [];
    for (let i = this.#lines.length - 1; i >= 0 && last.length < count; i--) {
      const line = this.#lines[i]!;
      if (STARTED.test(line)) break;
      if (line.trim() !== "" && !line.startsWith(OWN_NOTE)) last.unshift(line);
    }
    return last.join("\n");
  }
}
