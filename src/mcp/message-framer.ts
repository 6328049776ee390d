/**
 * Newline framing for what a stdio server writes. Unlike the socket's framer, an oversized line is
 * not fatal here: the line is skipped, the stream stays in step at the next newline, and if the
 * request id can be read from the ends of the line, the waiting call gets an error answer at once
 * instead of a timeout. One huge result must not cost the server its connection.
 */
const NEWLINE = 0x0a;
/** Bytes of each end of a skipped line kept to find its id in. */
const EDGE_BYTES = 256;

export interface FramerEvents {
  line: (line: string) => void;
  /** A line over the limit was skipped; `id` is its JSON-RPC id when it could be read. */
  oversized: (bytes: number, id: string | number | undefined) => void;
}

export class MessageFramer {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** Set while skipping the rest of an oversized line. */
  #skipping: { bytes: number; head: Uint8Array; tail: Uint8Array } | undefined;

  constructor(
    private readonly maxLineBytes: number,
    private readonly events: FramerEvents,
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(start, end);
      if (this.#skipping) this.#skip(piece);
      else if (this.#pendingBytes + piece.length > this.maxLineBytes) this.#beginSkip(piece);
      // Copy: the stream may reuse the chunk's memory once push returns.
      else if (piece.length > 0) {
        this.#pending.push(newline === -1 ? piece.slice() : piece);
        this.#pendingBytes += piece.length;
      }
      if (newline === -1) return;
      this.#finishLine();
      start = newline + 1;
    }
  }

  #finishLine(): void {
    if (this.#skipping) {
      const { bytes, head, tail } = this.#skipping;
      this.#skipping = undefined;
      this.events.oversized(bytes, findId(head, tail));
      return;
    }
    if (this.#pendingBytes === 0) return;
    const line = Buffer.concat(this.#pending, this.#pendingBytes).toString("utf8");
    this.#pending = [];
    this.#pendingBytes = 0;
    if (line.trim() !== "") this.events.line(line);
  }

  #beginSkip(piece: Uint8Array): void {
    const joined = Buffer.concat([...this.#pending, piece.subarray(0, EDGE_BYTES)]);
    this.#skipping = { bytes: this.#pendingBytes, head: joined.subarray(0, EDGE_BYTES), tail: new Uint8Array() };
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#skip(piece);
  }

  #skip(piece: Uint8Array): void {
    const skipping = this.#skipping!;
    skipping.bytes += piece.length;
    const tail = Buffer.concat([skipping.tail, piece.subarray(Math.max(0, piece.length - EDGE_BYTES))]);
    skipping.tail = tail.subarray(Math.max(0, tail.length - EDGE_BYTES)).slice();
  }
}

const HEAD_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
// A response's id is its last member in what the TypeScript SDK writes: `..."jsonrpc":"2.0","id":7}`.
const TAIL_ID = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*\r?$/;

function findId(head: Uint8Array, tail: Uint8Array): string | number | undefined {
  const match = HEAD_ID.exec(Buffer.from(head).toString("latin1")) ?? TAIL_ID.exec(Buffer.from(tail).toString("latin1"));
  if (!match) return undefined;
  const raw = match[1]!;
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw);
}
