/**
 * deferral/ and assembly/ are pure (STYLE.md): no I/O, no clock, no environment, no randomness —
 * only their own files and the tool contract. This is what makes assembleRequest restart-safe.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const ALLOWED: Record<string, RegExp[]> = {
  "src/deferral": [/^\.\/[a-z-]+\.ts$/, /^\.\.\/tool\/tool\.ts$/],
  // porter-stem.ts is one pure function (Porter's algorithm): server summaries merge a word's inflections.
  "src/assembly": [/^\.\/[a-z-]+\.ts$/, /^\.\.\/deferral\/[a-z-]+\.ts$/, /^\.\.\/tool\/(tool|names|one-line)\.ts$/, /^\.\.\/search\/porter-stem\.ts$/],
};
const IMPURE = /\b(process\.env|Date\.now|new Date\(|Math\.random|fetch\(|Bun\.(file|write|spawn|env|sleep)|require\()/;

describe.each(Object.entries(ALLOWED))("%s is pure", (folder, allowed) => {
  const files = readdirSync(join(ROOT, folder)).filter((file) => file.endsWith(".ts"));

  test.each(files)("%s imports only what it may", (file) => {
    const source = readFileSync(join(ROOT, folder, file), "utf8");
    const specifiers = [...source.matchAll(/^(?:import|export)[^"']*?from\s+["']([^"']+)["']/gm)].map((match) => match[1]!);
    const strays = specifiers.filter((specifier) => !allowed.some((pattern) => pattern.test(specifier)));
    expect(strays).toEqual([]);
    expect(source.match(IMPURE)?.[0]).toBeUndefined();
  });
});
