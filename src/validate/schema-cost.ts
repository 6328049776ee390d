/**
 * How much work a JSON Schema can ask of a validator for one value: its node count with every local
 * `$ref` expanded. Combinators over shared definitions grow it exponentially — sixteen levels of
 * `anyOf: [{$ref: prev}, {$ref: prev}]` are 1.2 KB of text and 65,536 paths to try for one value —
 * so a schema is refused before it is compiled when the count passes a bound. A `$ref` back into
 * itself is unrolled as deep as a request's JSON may nest (data that deep is what it walks), so
 * a plain tree schema costs its size times that depth, and a branching one is refused.
 * Memoized per definition and depth, and the walk itself is bounded.
 */
import { MAX_JSON_DEPTH } from "../protocol/limits.ts";

export const MAX_SCHEMA_EXPANSION = 20_000;
/** Nodes visited while counting, whatever the schema's shape. */
const MAX_VISITS = 200_000;
/** Keys whose values map names to schemas. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(["properties", "patternProperties", "dependentSchemas", "dependencies"]);
/** Keys of a schema whose values are data, not schemas: they cost nothing to walk. */
const DATA_KEYS: ReadonlySet<string> = new Set(["$defs", "definitions", "enum", "const", "examples", "default", "description", "title"]);

export function schemaExpansion(schema: unknown): number {
  const memo = new Map<string, number>();
  const open = new Map<string, number>();
  let visits = 0;
  const cost = (node: unknown, depth: number): number => {
    if (++visits > MAX_VISITS) return Number.POSITIVE_INFINITY;
    if (Array.isArray(node)) {
      let sum = 0;
      for (const item of node) if ((sum += cost(item, depth)) > MAX_SCHEMA_EXPANSION) break;
      return sum;
    }
    if (typeof node !== "object" || node === null) return 0;
    let total = 1;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") total += refCost(value, depth);
      else if (SCHEMA_MAPS.has(key)) total += mapCost(value, depth);
      else if (!DATA_KEYS.has(key)) total += cost(value, depth);
      if (total > MAX_SCHEMA_EXPANSION) return total;
    }
    return total;
  };
  // Under `properties` the keys are names ("default", "enum" are fine names): every value is a schema.
  const mapCost = (map: unknown, depth: number): number => {
    if (typeof map !== "object" || map === null || Array.isArray(map)) return cost(map, depth);
    let sum = 1;
    for (const value of Object.values(map)) if ((sum += cost(value, depth)) > MAX_SCHEMA_EXPANSION) break;
    return sum;
  };
  const refCost = (ref: string, depth: number): number => {
    if (!ref.startsWith("#")) return 1;
    const reentered = (open.get(ref) ?? 0) > 0;
    if (reentered && depth <= 0) return 1;
    const next = reentered ? depth - 1 : depth;
    const key = `${next}@${ref}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const target = resolvePointer(schema, ref.slice(1));
    open.set(ref, (open.get(ref) ?? 0) + 1);
    const counted = target === undefined ? 1 : cost(target, next);
    open.set(ref, open.get(ref)! - 1);
    memo.set(key, counted);
    return counted;
  };
  return cost(schema, MAX_JSON_DEPTH);
}

/** Whether a schema asks too much of a validator (see schemaExpansion). */
export function tooCostlySchema(schema: unknown): boolean {
  return schemaExpansion(schema) > MAX_SCHEMA_EXPANSION;
}

/** A JSON Pointer (`/$defs/a~1b`) into `root`, or undefined when it leads nowhere. */
function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
