/**
 * Read: a file's lines with their numbers, a range of a large file, or an image. Text is decoded
 * strictly; binary files are refused with a reason instead of being shown as noise.
 */
import type { FileHandle } from "node:fs/promises";
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import { errorResult, textResult, type ToolResult } from "../tool/result.ts";
import { MAX_IMAGE_BYTES, sniffImageType } from "./image-file.ts";
import { readLineWindow, type WindowLine } from "./read-lines.ts";
import { formatBytes, numberedLine } from "./text-file.ts";
import { openInWorkspace, readAtMost, readableBy } from "./workspace-file.ts";
import { confineToWorkspace, realPathSubject, realRoots, resolveInWorkspace } from "./workspace-paths.ts";
import description from "./read.txt" with { type: "text" };

export const DEFAULT_READ_LINES = 2000;
/** Files above this size are read only in ranges: a whole 50 MB log would drown the context. */
export const MAX_READ_BYTES = 256 * 1024;
/** The line text shown per call; below the tool's result cap so the continuation note survives it. */
export const MAX_READ_OUTPUT_CHARS = 90_000;

const inputSchema = () =>
  z.strictObject({
    file_path: z.string().describe("Absolute path of the file to read (a path relative to the working directory also works)."),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Line number to start reading from, counting from 1. Give it, with limit, only for files too large to read at once."),
    limit: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(`Number of lines to read (default ${DEFAULT_READ_LINES}).`),
  });

export const readTool = buildTool({
  name: "Read",
  description,
  searchHint: "view file contents line numbers image",
  inputSchema,
  isReadOnly: true,
  openWorld: false,
  isConcurrencySafe: () => true,
  checkPermissions: async ({ file_path }, context) => confineToWorkspace(file_path, context),
  permissionSubject: ({ file_path }, cwd) => realPathSubject(file_path, cwd),
  access: ({ file_path }, cwd) => ({ reads: [realPathSubject(file_path, cwd)], writes: [] }),
  async call({ file_path, offset, limit }, context) {
    const path = resolveInWorkspace(file_path, context);
    // Type, size and bytes all come from one descriptor: nothing swapped in after a check is read.
    const opened = await openInWorkspace(path, realRoots(context), false, readableBy(context));
    if (!opened.ok) return errorResult(opened.missing ? `File does not exist: ${path}` : `${opened.reason}.`);
    await using file = opened.entry;
    const info = file.stats;
    if (info.isDirectory()) return errorResult(`${path} is a directory. Use Glob to list its files.`);
    if (!info.isFile()) return errorResult(`${path} is not a regular file.`);

    // A file Read may return whole is read once; only larger files are streamed (a range of a big log).
    const small = info.size <= MAX_READ_BYTES ? await readAtMost(file.handle, MAX_READ_BYTES, info.size) : undefined;
    // A file that grew past the limit after the fstat is treated as the large file it now is.
    const whole = small && !small.more ? small.bytes : undefined;
    const size = whole ? whole.length : Math.max(info.size, MAX_READ_BYTES + 1);
    const image = await readImage(path, size, whole, file.handle);
    if (image) return image;

    const ranged = offset !== undefined || limit !== undefined;
    if (!ranged && size > MAX_READ_BYTES) {
      return errorResult(
        `${path} is ${formatBytes(size)}, more than the ${formatBytes(MAX_READ_BYTES)} Read returns at once. ` +
          "Read a range with offset and limit (for example offset 1, limit 500), or use Grep to find the lines you need.",
      );
    }
    const start = Math.max(offset ?? 1, 1);
    const count = limit ?? DEFAULT_READ_LINES;
    const window = await readLineWindow(whole ?? file.handle, { start, count, readToEnd: whole !== undefined, signal: context.signal });
    if (!window.ok) {
      const why = window.reason === "binary" ? "it contains NUL bytes" : "it is not valid UTF-8 text";
      return errorResult(`${path} looks like a binary file (${why}); Read only shows text and images.`);
    }
    const total = window.totalLines;
    if (total === 0) return textResult(`${path} is empty.`);
    if (window.lines.length === 0) {
      return errorResult(`${path} has ${total} lines; offset ${start} is past the end of the file.`);
    }
    return textResult(formatWindow(window.lines, start, total));
  },
});

async function readHead(handle: FileHandle): Promise<Uint8Array> {
  const head = new Uint8Array(16);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  return head.subarray(0, bytesRead);
}

function formatWindow(lines: readonly WindowLine[], start: number, total: number | undefined): string {
  const out: string[] = [];
  let chars = 0;
  let lineNumber = start;
  for (const line of lines) {
    const text = numberedLine(lineNumber, line.text, line.length);
    if (out.length > 0 && chars + text.length + 1 > MAX_READ_OUTPUT_CHARS) {
      out.push(`[Output stopped at line ${lineNumber - 1} to stay under ${MAX_READ_OUTPUT_CHARS.toLocaleString("en-US")} characters. Continue with offset ${lineNumber}.]`);
      return out.join("\n");
    }
    out.push(text);
    chars += text.length + 1;
    lineNumber++;
  }
  const last = lineNumber - 1;
  if (total === undefined) {
    out.push(`[Showing lines ${start}-${last}; the file continues. Continue with offset ${last + 1}.]`);
  } else if (last < total || start > 1) {
    const more = last < total ? ` Continue with offset ${last + 1}.` : "";
    out.push(`[Showing lines ${start}-${last} of ${total}.${more}]`);
  }
  return out.join("\n");
}

async function readImage(path: string, size: number, whole: Uint8Array | undefined, handle: FileHandle): Promise<ToolResult | undefined> {
  const head = whole ? whole.subarray(0, 16) : await readHead(handle);
  const mimeType = sniffImageType(head);
  if (!mimeType) return undefined;
  if (size > MAX_IMAGE_BYTES) {
    return errorResult(`${path} is a ${formatBytes(size)} image (${mimeType}); images over ${formatBytes(MAX_IMAGE_BYTES)} cannot be returned.`);
  }
  let bytes = whole;
  if (!bytes) {
    const read = await readAtMost(handle, MAX_IMAGE_BYTES, size);
    if (read.more) return errorResult(`${path} grew past ${formatBytes(MAX_IMAGE_BYTES)} while it was read; images over that cannot be returned.`);
    bytes = read.bytes;
  }
  const data = Buffer.from(bytes).toString("base64");
  return {
    content: [
      { type: "image", data, mimeType },
      { type: "text", text: `${path}: ${mimeType} image, ${formatBytes(bytes.length)}.` },
    ],
    isError: false,
  };
}
