import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "..", "src");
/** Parts that must stay pure: they may not reach the daemon, the CLI, or I/O modules. */
const PURE = ["tool", "protocol", "deferral", "assembly", "permissions", "pool", "explain"];
const FORBIDDEN_TARGETS = ["daemon", "cli", "mcp", "session"];
const IO_MODULES = /^(node:(fs|net|child_process|http|https|dgram)|fs|net|child_process|bun:sqlite)(\/|$)/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

function imports(path: string): string[] {
  const text = readFileSync(path, "utf8");
  return [...text.matchAll(/(?:import|export)[^"']*?from\s+["']([^"']+)["']|require\(["']([^"']+)["']\)/g)].map(
    (match) => match[1] ?? match[2] ?? "",
  );
}

describe("dependency direction", () => {
  for (const part of PURE) {
    test(`src/${part} imports no I/O and nothing above it`, () => {
      const offenders: string[] = [];
      for (const file of files(join(SRC, part))) {
        for (const target of imports(file)) {
          const upward = FORBIDDEN_TARGETS.some((name) => target.startsWith(`../${name}/`) || target.startsWith(`../../${name}/`));
          if (upward || IO_MODULES.test(target)) offenders.push(`${relative(SRC, file)} → ${target}`);
        }
      }
      expect(offenders).toEqual([]);
    });
  }
});
