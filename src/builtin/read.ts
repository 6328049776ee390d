/**
 * Read: a file's lines with their numbers, a range of a large file, or an image. Text is decoded
 * strictly; binary files are refused with a reason instead of being shown as noise.
 */
import { open } from "node:fs/promises";
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import { errorResult, textResult, type ToolResult } from "../tool/result.ts";
import { MAX_IMAGE_BYTES, sniffImageType } from "./image-file.ts";
import { readLineWindow, type WindowLine } from "./read-lines.ts";
import { formatBytes, numberedLine, statOrUndefined } from "./text-file.ts";
import { confineToWorkspace, realPathSubject, resolveInWorkspace } from "./workspace-paths.ts";
import description from "./read.txt" with { type: "text" };

export const DEFAULT_READ_LINES = 2000;
/** Files above this size are read only in ranges: a whole 50 MB log would drown the context. */
export const MAX_READ_BYTES = 256 * 1024;
/** The line text shown per call; below the tool's result cap so the continuation note survives it. */
export const MAX_READ_OUTPUT_CHARS = 90_000;

const inputSchema = z.strictObject({
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
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  checkPermissions: async ({ file_path }, context) => confineToWorkspace(file_path, context),
  permissionSubject: ({ file_path }, cwd) => realPathSubject(file_path, cwd),
  access: ({ file_path }, cwd) => ({ reads: [realPathSubject(file_path, cwd)], writes: [] }),
  async call({ file_path, offset, limit }, context) {
    const path = resolveInWorkspace(file_path, context);
    const info = await statOrUndefined(path);
    if (!info) return errorResult(`File does not exist: ${path}`);
    if (info.isDirectory()) return errorResult(`${path} is a directory. Use Glob to list its files.`);
    if (!info.isFile()) return errorResult(`${path} is not a regular file.`);

    // A file Read may return whole is read once; only larger files are streamed (a range of a big log).
    const whole = info.size <= MAX_READ_BYTES ? await Bun.file(path).bytes() : undefined;
    const image = await readImage(path, info.size, whole);
    if (image) return image;

    const ranged = offset !== undefined || limit !== undefined;
    if (!ranged && info.size > MAX_READ_BYTES) {
      return errorResult(
        `${path} is ${formatBytes(info.size)}, more than the ${formatBytes(MAX_READ_BYTES)} Read returns at once. ` +
          "Read a range with offset and limit (for example offset 1, limit 500), or use Grep to find the lines you need.",
      );
    }
    const start = Math.max(offset ?? 1, 1);
    const count = limit ?? DEFAULT_READ_LINES;
    const window = await readLineWindow(whole ?? path, { start, count, readToEnd: info.size <= MAX_READ_BYTES, signal: context.signal });
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

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, "r");
  const head = new Uint8Array(16);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  return head;
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

async function readImage(path: string, size: number, whole: Uint8Array | undefined): Promise<ToolResult | undefined> {
  const head = whole ? whole.subarray(0, 16) : await readHead(path);
  const mimeType = sniffImageType(head);
  if (!mimeType) return undefined;
  if (size > MAX_IMAGE_BYTES) {
    return errorResult(`${path} is a ${formatBytes(size)} image (${mimeType}); images over ${formatBytes(MAX_IMAGE_BYTES)} cannot be returned.`);
  }
  const data = Buffer.from(whole ?? (await Bun.file(path).bytes())).toString("base64");
  return {
    content: [
      { type: "image", data, mimeType },
      { type: "text", text: `${path}: ${mimeType} image, ${formatBytes(size)}.` },
    ],
    isError: false,
  };
}
