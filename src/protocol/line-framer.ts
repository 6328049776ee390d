/**
 * Newline-delimited framing (the MCP stdio framing): bytes in, complete lines out. Pure, so the
 * daemon and the client share it. A line past `maxLineBytes` is reported once and the framer stops:
 * the rest of the stream cannot be trusted to be in step, so the owner closes the connection.
 */
const NEWLINE = 0x0a;

export interface FramerEvents {
  line: (line: string) => void;
  overflow: (bytesSeen: number) => void;
}

export class LineFramer {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #overflowed = false;
  /** Chunks received while held, not yet split into lines (oldest first). */
  #held: Buffer[] = [];
  #heldBytes = 0;
  #holding = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly events: FramerEvents,
  ) {}

  /** Bytes of the unfinished line held so far (what a slow or hostile sender costs us). */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** Everything received and not yet emitted: the unfinished line plus what is held. */
  get bufferedBytes(): number {
    return this.#pendingBytes + this.#heldBytes;
  }

  /**
   * Stops emitting lines, even in the middle of a chunk, until `release()`: the owner cannot take
   * more work now (its client is not reading the answers), and one chunk can hold thousands of lines.
   */
  hold(): void {
    this.#holding = true;
  }

  release(): void {
    this.#holding = false;
    while (!this.#holding && !this.#overflowed && this.#held.length > 0) {
      const chunk = this.#held.shift()!;
      this.#heldBytes -= chunk.length;
      this.#consume(chunk);
    }
  }

  /** Drops the unfinished line and every later byte (the connection is being cut off). */
  discard(): void {
    this.#overflowed = true;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#held = [];
    this.#heldBytes = 0;
  }

  push(chunk: Buffer): void {
    if (this.#overflowed) return;
    if (this.#holding || this.#held.length > 0) {
      // Copy: the caller may reuse the chunk's memory after push returns.
      this.#held.push(Buffer.from(chunk));
      this.#heldBytes += chunk.length;
      return;
    }
    this.#consume(chunk);
  }

  #consume(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline);
      if (this.#pendingBytes + piece.length > this.maxLineBytes) return this.#overflow(this.#pendingBytes + piece.length);
      const line =
        this.#pendingBytes === 0
          ? piece.toString("utf8")
          : Buffer.concat([...this.#pending, piece], this.#pendingBytes + piece.length).toString("utf8");
      this.#pending = [];
      this.#pendingBytes = 0;
      if (line.length > 0 && line !== "\r") this.events.line(line);
      if (this.#overflowed) return;
      start = newline + 1;
      if (this.#holding) {
        if (start < chunk.length) {
          const rest = Buffer.from(chunk.subarray(start));
          this.#held.unshift(rest);
          this.#heldBytes += rest.length;
        }
        return;
      }
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.#pendingBytes + rest.length > this.maxLineBytes) return this.#overflow(this.#pendingBytes + rest.length);
      // Copy: the caller may reuse the chunk's memory after push returns.
      this.#pending.push(Buffer.from(rest));
      this.#pendingBytes += rest.length;
    }
  }

  #overflow(bytes: number): void {
    this.discard();
    this.events.overflow(bytes);
  }
}

/**
 * What makes a JSON text expensive to parse, found without parsing (strings skipped): nesting
 * deeper than `maxDepth`, or more than `maxMembers` object members or objects and arrays (a 6 MB
 * line of 600,000 keys takes JSON.parse ~440 ms on the thread that serves every client; 100,000
 * take ~27 ms).
 */
export function jsonShapeProblem(text: string, maxDepth: number, maxMembers: number): string | undefined {
  let depth = 0;
  let members = 0;
  let containers = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x3a) {
      if (++members > maxMembers) return `JSON with more than ${maxMembers.toLocaleString("en-US")} object members`;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return `JSON nested deeper than ${maxDepth} levels`;
      // Millions of `[]` cost as much to parse as keys (7.9 MB of them: ~480 ms).
      if (++containers > maxMembers) return `JSON with more than ${maxMembers.toLocaleString("en-US")} objects and arrays`;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return undefined;
}

/** `{"jsonrpc":"2.0","id":…` or `{"id":…` at the head of a line: where every JSON-RPC writer we know puts it. */
const LEADING_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,256}")\s*[,}]/;

/**
 * The id a line too large or too deep to parse opens with, read from its first bytes only, so that
 * its refusal answers the request that caused it (a client waits for that id) instead of `null`.
 */
export function leadingRequestId(text: string): string | number | null {
  const found = LEADING_ID.exec(text.slice(0, 512));
  if (!found) return null;
  try {
    const id: unknown = JSON.parse(found[1]!);
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}
