import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** One line of ../shared/eval/tools.jsonl. */
export interface EvalTool {
  name: string;
  server: string;
  description: string;
  input_schema?: unknown;
  source: string;
  category?: string;
  server_description?: string;
}

/** One line of ../shared/eval/queries.*.jsonl. */
export interface EvalQuery {
  id: string;
  query: string;
  gold: string[];
  /** LiveMCPBench: alternatives per step; any member of a group counts for that step. */
  gold_groups?: string[][];
  source: string;
  subset?: string;
  lang?: string;
}

/** The repository root: the nearest folder above this file that holds package.json. */
export function repoRoot(): string {
  let folder = import.meta.dir;
  while (!existsSync(join(folder, "package.json"))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error("package.json not found above " + import.meta.dir);
    folder = parent;
  }
  return folder;
}

/** `../shared/eval` beside the repository (a CI checkout keeps shared/ as a sibling folder). */
export function defaultEvalDir(): string {
  return resolve(repoRoot(), "../shared/eval");
}

export function readJsonl<T>(path: string): T[] {
  const rows: T[] = [];
  for (const [index, line] of readFileSync(path, "utf8").split("\n").entries()) {
    if (line.trim().length === 0) continue;
    try {
      rows.push(JSON.parse(line) as T);
    } catch (error) {
      throw new Error(`${path}:${index + 1}: not JSON (${String(error)})`);
    }
  }
  return rows;
}

/** Script of the query text: CJK queries are reported apart from other non-English ones. */
export function hasCjk(text: string): boolean {
  return /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(text);
}
