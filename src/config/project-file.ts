/**
 * A project's own config: `.toolpool.json` in a workspace root (else a Claude Code style
 * `.mcp.json`), with `mcpServers` in the `.mcp.json` format and an optional `defaultProfile`.
 * Read once per look, bounded, and hashed from the very bytes that are parsed, so what is
 * approved (`toolpool trust`) is exactly what runs.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { mcpServerSchema, reservedServerNameProblem, type McpServerConfig } from "./schema.ts";
import { describeIssues } from "./load.ts";
import { contentHash } from "./trust-store.ts";
import { isInside } from "../runtime/path-inside.ts";

export const PROJECT_FILE_NAMES = [".toolpool.json", ".mcp.json"] as const;
const MAX_PROJECT_FILE_BYTES = 1024 * 1024;

const serverName = z.string().regex(/^[a-zA-Z0-9_-]{1,48}$/, "server names use [a-zA-Z0-9_-], at most 48 characters");

const toolpoolFileSchema = z.strictObject({
  $schema: z.string().optional(),
  mcpServers: z.record(serverName, mcpServerSchema).default({}),
  defaultProfile: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "profile names use [a-zA-Z0-9_-]").optional(),
});

/** Other tools' keys in a `.mcp.json` are theirs; only `mcpServers` is ours. */
const mcpJsonSchema = z.looseObject({ mcpServers: z.record(serverName, mcpServerSchema).default({}) });

export interface ProjectFile {
  /** The workspace root (a real path) and the file in it (a real path). */
  root: string;
  file: string;
  sha256: string;
  servers: Record<string, McpServerConfig>;
  defaultProfile?: string;
}

export class ProjectFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

function isInsideRoot(file: string, root: string): boolean {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return false;
  }
  return file !== realRoot && isInside(file, realRoot);
}

/** The project file of a root: undefined when it has none; throws ProjectFileError for a bad one. */
export function readProjectFile(root: string): ProjectFile | undefined {
  for (const name of PROJECT_FILE_NAMES) {
    const path = join(root, name);
    let file: string;
    try {
      file = realpathSync(path);
    } catch {
      continue;
    }
    // Approval is given to a file of a project: a link to another project's approved file must not
    // run that file's servers here, in this root, with this root's `./server.sh`.
    if (!isInsideRoot(file, root)) {
      throw new ProjectFileError(path, `${path} links to ${file}, outside the workspace root ${root}; a project file must lie in its root, so it was not read`);
    }
    return parseProjectFile(root, file, readBounded(file), name === ".toolpool.json");
  }
  return undefined;
}

export function parseProjectFile(root: string, file: string, bytes: Buffer, ownFormat: boolean): ProjectFile {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new ProjectFileError(file, `project file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const reserved = reservedServerNameProblem((raw as { mcpServers?: unknown } | null)?.mcpServers, `project file ${file} is invalid: mcpServers`);
  if (reserved) throw new ProjectFileError(file, reserved);
  const parsed = (ownFormat ? toolpoolFileSchema : mcpJsonSchema).safeParse(raw);
  if (!parsed.success) throw new ProjectFileError(file, `project file ${file} is invalid:\n${describeIssues(parsed.error.issues)}`);
  const data = parsed.data as { mcpServers: Record<string, McpServerConfig>; defaultProfile?: string };
  return {
    root,
    file,
    sha256: contentHash(bytes),
    servers: data.mcpServers,
    ...(data.defaultProfile !== undefined && { defaultProfile: data.defaultProfile }),
  };
}

function readBounded(file: string): Buffer {
  let fd: number;
  try {
    // Non-blocking: a FIFO planted as the project file must not hang the daemon on open.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new ProjectFileError(file, `cannot read project file ${file}: ${(error as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ProjectFileError(file, `project file ${file} is not a regular file`);
    if (stat.size > MAX_PROJECT_FILE_BYTES) throw new ProjectFileError(file, `project file ${file} is ${stat.size} bytes, over the ${MAX_PROJECT_FILE_BYTES}-byte limit`);
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const count = readSync(fd, buffer, read, stat.size - read, read);
      if (count === 0) break;
      read += count;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
