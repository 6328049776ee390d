/**
 * The searching half of Grep: walks the files, filters them by type and glob, skips what cannot or
 * should not be searched, and turns matches into output lines in ripgrep's shapes:
 * `path:12:text` for matches, `path-13-text` for context, `--` between groups, `path:3` for counts.
 */
import { basename } from "node:path";
import type { LinearRegex } from "../runtime/linear-regex.ts";
import { FileWalk, type WalkedFile } from "./file-walk.ts";
import { hasExtension } from "./file-types.ts";
import { contextGroups, findMatches, type FileMatches } from "./grep-matcher.ts";
import { BINARY_SNIFF_BYTES, cutLongLine, decodeUtf8, formatBytes, hasNulByte } from "./text-file.ts";
import { openInWorkspace, readAtMost } from "./workspace-file.ts";
import { narrowedTo, type RootsArg } from "./workspace-roots.ts";

/** Files above this size are skipped: they are logs or bundles, and reading them would stall the call. */
export const MAX_GREP_FILE_BYTES = 5 * 1024 * 1024;
/** Output lines (content) or entries (count) kept when no smaller head_limit is given. */
export const MAX_GREP_ENTRIES = 5000;
/** Matching files collected for files_with_matches before the search stops. */
export const MAX_GREP_FILES = 20_000;
/** Matching lines are cut to this length: a hit in minified code must not flood the context. */
const MAX_GREP_LINE_CHARS = 500;

export type GrepMode = "content" | "files_with_matches" | "count";

export interface GrepRequest {
  root: string;
  /** The root is one file: search it whatever the filters say, and print lines without its name. */
  singleFile: boolean;
  regex: LinearRegex;
  multiline: boolean;
  mode: GrepMode;
  before: number;
  after: number;
  lineNumbers: boolean;
  limit?: number | undefined;
  type?: ReadonlySet<string>;
  glob?: string;
  signal?: AbortSignal;
  /** The session's path rules: a file they forbid reading is skipped as if absent. */
  readable?: (path: string) => boolean;
  /** The session's roots: files are opened beneath their pinned descriptors. */
  roots?: RootsArg;
}

export interface GrepOutcome {
  /** Output lines (content), `path:count` entries (count) or matching paths (files_with_matches). */
  entries: string[];
  /** More output existed than `entries` holds. */
  more: boolean;
  notes: string[];
}

export async function searchFiles(request: GrepRequest): Promise<GrepOutcome> {
  const cap = request.mode === "files_with_matches" ? MAX_GREP_FILES : Math.min(request.limit ?? MAX_GREP_ENTRIES, MAX_GREP_ENTRIES);
  const walk = new FileWalk(request.root, { ...(request.signal && { signal: request.signal }), ...(request.roots && { roots: request.roots }) });
  const files = request.singleFile ? single(request.root) : walk.files();
  const accepts = fileFilter(request);
  const entries: string[] = [];
  let more = false;
  let oversized = 0;
  let matchingLines = 0;
  let matchingFiles = 0;

  for await (const file of files) {
    if (request.signal?.aborted) throw new Error("the search was cancelled");
    if (!request.singleFile && !accepts(file)) continue;
    if (request.readable && !request.readable(file.path)) continue;
    const text = await searchableText(file.path, request.root, request.readable, request.roots);
    if (text === "oversized") oversized++;
    if (typeof text !== "object") continue;
    const matches = await findMatches(text.value, request.regex, request.multiline, { signal: request.signal });
    if (matches.matched.length === 0) continue;
    matchingFiles++;
    matchingLines += matches.matched.length;
    const produced = render(request, file.path, matches);
    const room = cap - entries.length;
    entries.push(...produced.slice(0, room));
    if (produced.length > room) {
      more = true;
      break;
    }
  }

  const notes: string[] = [];
  if (more) notes.push(moreNote(request.mode, entries.length));
  if (request.mode === "count" && !more && matchingFiles > 0) {
    notes.push(`Found ${matchingLines} matching ${matchingLines === 1 ? "line" : "lines"} in ${matchingFiles} ${matchingFiles === 1 ? "file" : "files"}.`);
  }
  if (walk.truncated) notes.push("[The search stopped early: the directory tree is very large. Narrow it with path, glob or type.]");
  if (oversized > 0) notes.push(`[Skipped ${oversized} ${oversized === 1 ? "file" : "files"} larger than ${formatBytes(MAX_GREP_FILE_BYTES)}; use Read with offset and limit on them.]`);
  return { entries, more, notes };
}

function render(request: GrepRequest, path: string, matches: FileMatches): string[] {
  if (request.mode === "files_with_matches") return [path];
  if (request.mode === "count") return [request.singleFile ? String(matches.matched.length) : `${path}:${matches.matched.length}`];
  const prefix = request.singleFile ? "" : path;
  const lines: string[] = [];
  const separated = request.before > 0 || request.after > 0;
  for (const group of contextGroups(matches, request.before, request.after)) {
    if (separated && lines.length > 0) lines.push("--");
    for (const { index, isMatch } of group) {
      const mark = isMatch ? ":" : "-";
      const number = request.lineNumbers ? `${index + 1}${mark}` : "";
      const head = prefix === "" ? number : `${prefix}${mark}${number}`;
      lines.push(`${head}${cutLongLine(matches.lines[index] ?? "", MAX_GREP_LINE_CHARS)}`);
    }
  }
  return lines;
}

function moreNote(mode: GrepMode, shown: number): string {
  if (mode === "files_with_matches") return `[The search stopped after ${shown} matching files. Narrow it with path, glob or type.]`;
  const unit = mode === "content" ? (shown === 1 ? "line of output" : "lines of output") : shown === 1 ? "entry" : "entries";
  return `[Showing the first ${shown} ${unit}; there are more. Narrow the search with path, glob or type, or raise head_limit.]`;
}

function fileFilter(request: GrepRequest): (file: WalkedFile) => boolean {
  const negated = request.glob?.startsWith("!") ?? false;
  const globText = negated ? request.glob?.slice(1) : request.glob;
  const glob = globText ? new Bun.Glob(globText) : undefined;
  const onPath = globText?.includes("/") ?? false;
  return (file) => {
    if (request.type && !hasExtension(file.path, request.type)) return false;
    if (!glob) return true;
    return glob.match(onPath ? file.relative : basename(file.path)) !== negated;
  };
}

async function* single(path: string): AsyncGenerator<WalkedFile> {
  yield { path, relative: basename(path) };
}

/**
 * The file's text, "oversized", or undefined for binary, special and unreadable files (skipped
 * silently, as ripgrep does). Size and bytes come from one descriptor verified below the root.
 */
async function searchableText(path: string, root: string, readable?: (path: string) => boolean, roots?: RootsArg): Promise<{ value: string } | "oversized" | undefined> {
  try {
    const opened = await openInWorkspace(path, narrowedTo(roots ?? [root], root), false, readable);
    if (!opened.ok) return undefined;
    await using file = opened.entry;
    if (!file.stats.isFile()) return undefined;
    if (file.stats.size > MAX_GREP_FILE_BYTES) return "oversized";
    const { bytes, more } = await readAtMost(file.handle, MAX_GREP_FILE_BYTES, file.stats.size);
    if (more) return "oversized";
    if (hasNulByte(bytes, BINARY_SNIFF_BYTES)) return undefined;
    const value = decodeUtf8(bytes);
    if (value === undefined) return undefined;
    return { value: value.startsWith("\uFEFF") ? value.slice(1) : value };
  } catch {
    return undefined;
  }
}
