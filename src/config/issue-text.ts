/**
 * Config issues in words a person can act on: an unknown key gets the nearest known key
 * (`workspaceRoot` → did you mean `workspaceRoots`), an invalid record key gets the rule it broke
 * (which characters a server name may use) instead of zod's "Invalid key in record".
 */
import type { z } from "zod";

/** The keys an object schema at `path` accepts (the union over a discriminated union's shapes). */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: unknown = schema;
  for (const segment of path) {
    current = unwrap(current);
    const def = definition(current);
    if (def?.type === "record") current = def.valueType;
    else if (def?.type === "array") current = def.element;
    else if (def?.type === "object") current = (def.shape as Record<string, unknown>)[String(segment)];
    else return [];
    if (current === undefined) return [];
  }
  return keysOf(unwrap(current));
}

function keysOf(schema: unknown): string[] {
  const def = definition(schema);
  if (def?.type === "object") return Object.keys(def.shape as object);
  if (def?.type === "union") return [...new Set((def.options as unknown[]).flatMap((option) => keysOf(unwrap(option))))];
  return [];
}

function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let depth = 0; depth < 8; depth++) {
    const def = definition(current);
    if (def && (def.type === "optional" || def.type === "default" || def.type === "nullable" || def.type === "prefault")) current = def.innerType;
    // A lazy shape (config/schema.ts): its inner schema, made once and kept by zod.
    else if (def?.type === "lazy") current = (current as { _zod: { innerType: unknown } })._zod.innerType;
    else return current;
  }
  return current;
}

function definition(schema: unknown): Record<string, unknown> & { type?: string } {
  return ((schema as { _zod?: { def?: unknown } } | undefined)?._zod?.def ?? undefined) as Record<string, unknown> & { type?: string };
}

/** The known key nearest to `key` (case-insensitive edit distance ≤ 2, or a prefix), if any. */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    const close = distance <= Math.min(2, Math.max(1, Math.floor(candidate.length / 3)));
    if ((close || candidate.toLowerCase().startsWith(key.toLowerCase())) && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/** Edits between two words, a swap of neighbours counting as one ("stauts" is one from "status"). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3 || a.length > 64 || b.length > 64) return 99;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, before[j - 2]! + 1);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}

/** An error names this many unknown keys at most: a request with 600,000 of them gets a short answer. */
const MAX_KEYS_NAMED = 10;

export function describeIssue(issue: z.core.$ZodIssue, schema?: z.ZodType): string {
  if (issue.code === "unrecognized_keys" && issue.keys.length > MAX_KEYS_NAMED) {
    const more = issue.keys.length - MAX_KEYS_NAMED;
    const keys = issue.keys.slice(0, MAX_KEYS_NAMED).map((key) => key.slice(0, 80));
    const named = { ...issue, keys, message: `Unrecognized keys: ${keys.map((key) => JSON.stringify(key)).join(", ")}` };
    return `${describeIssue(named, schema)} (and ${more} more unknown key${more === 1 ? "" : "s"})`;
  }
  const field = issue.path.map(String).join(".").slice(0, 200);
  const where = field ? `field "${field}"` : "top level";
  if (issue.code === "unrecognized_keys" && !schema) {
    return `  - ${where}: ${issue.message} (${issue.keys.map((key) => (field ? `${field}.${key}` : key)).join(", ")})`;
  }
  if (issue.code === "unrecognized_keys") {
    const known = schema ? knownKeysAt(schema, issue.path) : [];
    const keys = issue.keys.map((key) => {
      const shown = field ? `${field}.${key}` : key;
      const near = nearestKey(key, known);
      return near ? `"${shown}" (did you mean "${near}"?)` : `"${shown}"`;
    });
    const allowed = known.length > 0 && known.length <= 20 ? `; known keys here: ${known.join(", ")}` : "";
    return `  - ${where}: unknown key${keys.length > 1 ? "s" : ""} ${keys.join(", ")}${allowed}`;
  }
  if (issue.code === "invalid_key") {
    const inner = issue.issues.map((problem) => problem.message).join("; ");
    const key = issue.path.at(-1);
    const parent = issue.path.slice(0, -1).map(String).join(".");
    return `  - ${parent ? `field "${parent}"` : "top level"}: the name ${JSON.stringify(String(key))} is not allowed: ${inner}`;
  }
  return `  - ${where}: ${issue.message}`;
}
