/**
 * A throwaway workspace for built-in tool tests: a real directory under the run's temp root, a
 * ToolContext pointing at it, and a way to call tools through the real execution pipeline.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { bashTool } from "../../src/builtin/bash.ts";
import { editTool } from "../../src/builtin/edit.ts";
import { globTool } from "../../src/builtin/glob.ts";
import { grepTool } from "../../src/builtin/grep.ts";
import { readTool } from "../../src/builtin/read.ts";
import { writeTool } from "../../src/builtin/write.ts";
import { DEFAULT_PERMISSIONS, type PermissionSettings } from "../../src/permissions/rules.ts";
import { assemblePool } from "../../src/pool/assemble.ts";
import { executeTool } from "../../src/pipeline/execute.ts";
import { resultText, type ToolResult } from "../../src/tool/result.ts";
import type { Tool, ToolContext } from "../../src/tool/tool.ts";

/** The core built-ins this suite covers, in the order the list declares them. */
export const CORE_TOOLS: readonly Tool[] = [bashTool, readTool, writeTool, editTool, globTool, grepTool];

export function testRoot(): string {
  return process.env.TOOLPOOL_TEST_ROOT ?? tmpdir();
}

export interface Workspace extends Disposable {
  /** Real path of the workspace root. */
  root: string;
  /** Writes a file (creating parents) and returns its absolute path. */
  file(relative: string, content: string | Uint8Array): string;
  path(relative: string): string;
  context(overrides?: Partial<ToolContext>): ToolContext;
  /** Calls a tool through `executeTool`, as the daemon would. */
  call(name: string, input: unknown, options?: CallOptions): Promise<ToolResult>;
  /** Same, returning the result's text and error flag. */
  run(name: string, input: unknown, options?: CallOptions): Promise<{ text: string; isError: boolean }>;
}

export interface CallOptions {
  context?: Partial<ToolContext>;
  permissions?: PermissionSettings;
  tools?: readonly Tool[];
}

export function makeWorkspace(prefix = "ws-"): Workspace {
  const root = realpathSync(mkdtempSync(join(testRoot(), prefix)));
  const context = (overrides: Partial<ToolContext> = {}): ToolContext => ({
    signal: new AbortController().signal,
    sessionId: "test-session",
    workspaceRoots: [root],
    cwd: root,
    sessionState: new Map(),
    ...overrides,
  });
  const call = (name: string, input: unknown, options: CallOptions = {}) => {
    const pool = assemblePool({ builtins: options.tools ?? CORE_TOOLS, mcpTools: [] });
    return executeTool(name, input, context(options.context), {
      lookup: pool.get,
      permissions: options.permissions ?? DEFAULT_PERMISSIONS,
    });
  };
  return {
    root,
    path: (relative) => join(root, relative),
    file(relative, content) {
      const path = join(root, relative);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    context,
    call,
    async run(name, input, options) {
      const result = await call(name, input, options);
      return { text: resultText(result), isError: result.isError };
    },
    [Symbol.dispose]() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

// The one wait (test/helpers/wait.ts), under the name these tests import it by.
export { waitFor } from "../helpers/wait.ts";
