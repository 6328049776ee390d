/**
 * Collects a process's output in bounded memory: the first `headBytes` and the last `tailBytes`
 * are kept and everything between is only counted. A command that prints gigabytes costs the
 * daemon a few kilobytes, and the model still sees how the output began and how it ended (where
 * the error summary usually is).
 */

export class BoundedOutput {
  readonly #headBytes: number;
  readonly #tailBytes: number;
  readonly #head: Uint8Array[] = [];
  #headSize = 0;
  #tail: Uint8Array[] = [];
  #tailSize = 0;
  #total = 0;

  constructor(headBytes: number, tailBytes: number) {
    this.#headBytes = headBytes;
    this.#tailBytes = tailBytes;
  }

  get totalBytes(): number {
    return this.#total;
  }

  get truncated(): boolean {
    return this.#total > this.#headBytes + this.#tailBytes;
  }

  push(chunk: Uint8Array): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headSize < this.#headBytes) {
      const taken = rest.subarray(0, this.#headBytes - this.#headSize);
      this.#head.push(taken.slice());
      this.#headSize += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest.slice());
    this.#tailSize += rest.length;
    // Drop whole chunks that lie entirely before the last `tailBytes`; `text()` trims the rest.
    while (this.#tail.length > 1 && this.#tailSize - (this.#tail[0]?.length ?? 0) >= this.#tailBytes) {
      this.#tailSize -= this.#tail.shift()?.length ?? 0;
    }
  }

  /** The kept output as text, with a marker where the middle was left out. */
  text(): string {
    const decoder = new TextDecoder();
    const head = decoder.decode(Buffer.concat(this.#head));
    const tailBytes = Buffer.concat(this.#tail);
    const tail = decoder.decode(tailBytes.subarray(Math.max(0, tailBytes.length - this.#tailBytes)));
    if (!this.truncated) return head + tail;
    const omitted = this.#total - this.#headBytes - this.#tailBytes;
    return `${head}\n[... ${omitted.toLocaleString("en-US")} bytes of output omitted ...]\n${tail}`;
  }
}

/** Reads a stream into `sink` until it ends or `stop()` is called. */
export function pump(stream: ReadableStream<Uint8Array>, sink: BoundedOutput): { done: Promise<void>; stop: () => void } {
  const reader = stream.getReader();
  const done = (async () => {
    try {
      for (;;) {
        const { done: ended, value } = await reader.read();
        if (ended) return;
        sink.push(value);
      }
    } catch {
      // Cancelled by stop(), or the pipe broke: either way there is nothing more to read.
    }
  })();
  return { done, stop: () => void reader.cancel().catch(() => {}) };
}
