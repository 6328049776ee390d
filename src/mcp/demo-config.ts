/**
 * `toolpool serve --demo`: the official reference MCP servers — everything, memory, filesystem
 * (rooted in a fresh temp dir) and sequential-thinking — run from `node_modules/.bin` of the
 * current directory, so a checkout shows real MCP tools in `toolpool tools` with no config at all.
 * They run under the checkout's own Bun (node_modules/.bin/bun, installed by `npm ci`), not Node:
 * the product's paths do not depend on which Node the machine has.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../config/load.ts";
import type { StdioServerSpec } from "./server-spec.ts";

const DEMO_SERVERS = [
  { name: "everything", bin: "mcp-server-everything", args: ["stdio"] },
  { name: "memory", bin: "mcp-server-memory", args: [] },
  { name: "filesystem", bin: "mcp-server-filesystem", args: [] },
  { name: "sequential-thinking", bin: "mcp-server-sequential-thinking", args: [] },
] as const;

/** The demo servers' names (a config server of one of these names is used instead of the demo's). */
export const DEMO_SERVER_NAMES: readonly string[] = DEMO_SERVERS.map((server) => server.name);

export interface DemoSetup {
  specs: StdioServerSpec[];
  /** The temp dir the filesystem server is rooted in (memory's file lives there too). */
  workDir: string;
}

export function demoServerSpecs(cwd: string = process.cwd(), parentDir: string = tmpdir()): DemoSetup {
  const binDir = join(cwd, "node_modules", ".bin");
  const missing = DEMO_SERVERS.filter((server) => !existsSync(join(binDir, server.bin))).map((server) => server.bin);
  if (missing.length > 0) {
    throw new ConfigError(
      `--demo needs the reference MCP servers in ${binDir}, but ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing; run \`npm install\` (or \`bun install\`) in the toolpool checkout and start the demo from there`,
    );
  }
  const workDir = mkdtempSync(join(parentDir, "toolpool-demo-"));
  writeFileSync(join(workDir, "README.txt"), "A scratch directory for the toolpool demo's filesystem server.\n");
  // Their launchers start with `#!/usr/bin/env node`; run by Bun they need no Node at all.
  const bun = join(binDir, "bun");
  const runner = existsSync(bun) ? [bun] : [];
  const specs = DEMO_SERVERS.map(
    (server): StdioServerSpec => ({
      name: server.name,
      transport: "stdio",
      command: runner[0] ?? join(binDir, server.bin),
      args: [...(runner.length > 0 ? [join(binDir, server.bin)] : []), ...(server.name === "filesystem" ? [workDir] : server.args)],
      // memory's default file sits inside node_modules; keep the demo's writes in its temp dir.
      env: server.name === "memory" ? { MEMORY_FILE_PATH: join(workDir, "memory.jsonl") } : {},
      cwd,
      startup: "eager",
      disabled: false,
      alwaysLoad: [],
      origin: "(demo)",
    }),
  );
  return { specs, workDir };
}
