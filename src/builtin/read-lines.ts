/**
 * Streams a window of lines out of a file without loading the whole file, so Read can serve a
 * range of a multi-gigabyte log. Memory stays bounded even for a file that is one enormous line:
 * only the first `keepChars` characters of each line in the window are kept.
 */
import type { FileHandle } from "node:fs/promises";
import { MAX_DISPLAY_LINE_CHARS } from "./text-file.ts";
import { readChunks } from "./workspace-file.ts";

export interface LineWindowRequest {
  /** 1-based number of the first line wanted. */
  start: number;
  /** How many lines are wanted. */
  count: number;
  /** Keep reading after the window to count every line (cheap for small files). */
  readToEnd: boolean;
  signal?: AbortSignal;
  /** Characters kept per line; the rest is only counted. */
  keepChars?: number;
}

export interface WindowLine {
  text: string;
  /** Length of the whole line, which may exceed `text.length`. */
  length: number;
}

export type LineWindow =
  | { ok: true; lines: WindowLine[]; totalLines?: number }
  | { ok: false; reason: "binary" | "invalid-utf8" };

/** `source` is an open descriptor to stream from, or the bytes of a small file already read whole. */
export async function readLineWindow(source: FileHandle | Uint8Array, request: LineWindowRequest): Promise<LineWindow> {
  const keep = request.keepChars ?? MAX_DISPLAY_LINE_CHARS + 1;
  const end = request.start + request.count; // first line number past the window
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const lines: WindowLine[] = [];
  let lineNumber = 1;
  let current = "";
  let currentLength = 0;

  const take = (piece: string) => {
    currentLength += piece.length;
    if (lineNumber >= request.start && lineNumber < end && current.length < keep) {
      current += piece.slice(0, keep - current.length);
    }
  };
  const finishLine = () => {
    if (lineNumber >= request.start && lineNumber < end) {
      const text = current.endsWith("\r") ? current.slice(0, -1) : current;
      lines.push({ text, length: currentLength - (current.endsWith("\r") ? 1 : 0) });
    }
    lineNumber++;
    current = "";
    currentLength = 0;
  };
  const feed = (text: string) => {
    let from = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", from)) {
      take(text.slice(from, newline));
      finishLine();
      from = newline + 1;
    }
    take(text.slice(from));
  };

  const chunks = source instanceof Uint8Array ? wholeChunks(source) : readChunks(source);
  try {
    for await (const value of chunks) {
      if (request.signal?.aborted) throw new Error("the read was cancelled");
      if (value.includes(0)) return { ok: false, reason: "binary" };
      feed(decoder.decode(value, { stream: true }));
      if (!request.readToEnd && lineNumber >= end) return { ok: true, lines };
    }
    feed(decoder.decode());
  } catch (error) {
    if (error instanceof TypeError) return { ok: false, reason: "invalid-utf8" };
    throw error;
  } finally {
    await chunks.return(undefined);
  }
  // A last line without a trailing newline is still a line; an empty file has none.
  if (currentLength > 0) finishLine();
  return { ok: true, lines, totalLines: lineNumber - 1 };
}

async function* wholeChunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
