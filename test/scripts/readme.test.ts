/** The README tells a new user the truth: the commands it shows run, and what npm warns about is counted. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers/binary.ts";

const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");

test("no bare `bun …` command (bun is in node_modules/.bin, not on PATH)", () => {
  const bare = [...readme.matchAll(/(?:^|`|\n)\s*(bun (?:run|test|x|src)\b[^`\n]*)/g)].map((match) => match[1]);
  expect(bare).toEqual([]);
});

test("the client snippet closes its client (or the process never exits)", () => {
  const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  expect(snippet).toContain("ToolpoolClient.connect(");
  expect(snippet).toContain("client.close()");
});

test("no line is said twice", () => {
  const lines = readme.split("\n").filter((line) => line.trim().length > 40 && !line.startsWith("|") && !line.startsWith("```"));
  const seen = new Set<string>();
  const repeated = lines.filter((line) => (seen.has(line) ? true : (seen.add(line), false)));
  expect(repeated).toEqual([]);
});

test("the EBADENGINE count is the lockfile's: packages whose engines.node excludes Node 20.20.2", () => {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
  const refused = Object.entries(lock.packages).filter(([path, entry]) => {
    const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    return path !== "" && range !== undefined && !Bun.semver.satisfies("20.20.2", range);
  });
  const stated = /warnings for (\d+) packages that ask for Node ≥ 22/.exec(readme.replace(/\s+/g, " "))?.[1];
  expect(Number(stated)).toBe(refused.length);
});
