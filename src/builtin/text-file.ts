/**
 * Text-file helpers shared by Read, Edit and Grep: what counts as binary, strict UTF-8 decoding,
 * and the `cat -n` line format the model sees (and copies from when it edits).
 */
import { stat } from "node:fs/promises";
import { openInWorkspace, readAtMost } from "./workspace-file.ts";
import type { RootsArg } from "./workspace-roots.ts";

/** How much of a file is sniffed for NUL bytes, the way grep and git decide a file is binary. */
export const BINARY_SNIFF_BYTES = 8192;

/** Lines longer than this are cut in displayed output: one minified line must not eat the context. */
export const MAX_DISPLAY_LINE_CHARS = 2000;

export function hasNulByte(bytes: Uint8Array, limit = bytes.length): boolean {
  const end = Math.min(limit, bytes.length);
  for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
  return false;
}

/**
 * Decodes UTF-8 strictly; `undefined` when the bytes are not valid UTF-8 (so the file is treated as
 * binary rather than shown or rewritten with replacement characters). A byte-order mark is kept, so
 * an edited file is written back with the BOM it had.
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export type TextFile = { ok: true; text: string; size: number } | { ok: false; reason: string; missing: boolean };

/**
 * Reads a whole file as text, refusing directories, special files, files over `maxBytes` and binary
 * content with a reason the model can act on. The size is checked on the open descriptor and at
 * most `maxBytes` are read from it (workspace-file.ts), so a file swapped or grown meanwhile cannot
 * load more. `displayPath` is how the file is named in that reason.
 */
export async function readTextFile(
  path: string,
  maxBytes: number,
  roots: RootsArg,
  displayPath = path,
  readable?: (realPath: string) => boolean,
): Promise<TextFile> {
  const opened = await openInWorkspace(path, roots, false, readable);
  if (!opened.ok) return { ok: false, reason: opened.missing ? `${displayPath} does not exist.` : `${opened.reason}.`, missing: opened.missing };
  await using file = opened.entry;
  if (file.stats.isDirectory()) return { ok: false, reason: `${displayPath} is a directory, not a file.`, missing: false };
  if (!file.stats.isFile()) return { ok: false, reason: `${displayPath} is not a regular file.`, missing: false };
  if (file.stats.size > maxBytes) {
    return { ok: false, reason: `${displayPath} is ${formatBytes(file.stats.size)}, over the ${formatBytes(maxBytes)} limit.`, missing: false };
  }
  const { bytes, more } = await readAtMost(file.handle, maxBytes, file.stats.size);
  if (more) return { ok: false, reason: `${displayPath} grew past the ${formatBytes(maxBytes)} limit while it was read.`, missing: false };
  if (hasNulByte(bytes, BINARY_SNIFF_BYTES)) return { ok: false, reason: `${displayPath} is a binary file (it contains NUL bytes).`, missing: false };
  const text = decodeUtf8(bytes);
  if (text === undefined) return { ok: false, reason: `${displayPath} is not valid UTF-8 text (binary or another encoding).`, missing: false };
  return { ok: true, text, size: bytes.length };
}

export async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

/** One line as `cat -n` prints it: the 1-based number right-aligned in six columns, a tab, the text. */
export function numberedLine(lineNumber: number, line: string, fullLength = line.length): string {
  return `${String(lineNumber).padStart(6, " ")}\t${cutLongLine(line, MAX_DISPLAY_LINE_CHARS, fullLength)}`;
}

/** `fullLength` is the line's real length when `line` holds only its beginning (see read-lines.ts). */
export function cutLongLine(line: string, maxChars = MAX_DISPLAY_LINE_CHARS, fullLength = line.length): string {
  if (fullLength <= maxChars) return line;
  return `${line.slice(0, maxChars)} [... line cut: ${(fullLength - maxChars).toLocaleString("en-US")} more characters]`;
}

/** Splits text into lines the way editors count them: a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? "1 byte" : `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
