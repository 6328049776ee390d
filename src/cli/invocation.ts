/**
 * How to run this same toolpool again from the current directory, for the hints the CLI prints:
 * `toolpool` when that is what PATH finds, else `./dist/toolpool-pro` (a relative path), else the
 * absolute path; from source, `bun src/main.ts`. A hint naming a command that is not on PATH
 * fails with exit 127 for whoever copies it.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { buildInfo } from "../build-info.ts";

export function invocation(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  if (!buildInfo().compiled) return "bun src/main.ts";
  const onPath = Bun.which("toolpool", { PATH: env.PATH ?? "" });
  if (onPath && same(onPath, process.execPath)) return "toolpool";
  const path = relative(cwd, process.execPath);
  return path.startsWith("..") || isAbsolute(path) ? process.execPath : `./${path}`;
}

function same(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
