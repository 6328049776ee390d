/**
 * How much work a JSON Schema can ask of a validator for one value: its node count with every
 * `$ref` expanded. Combinators over shared definitions grow it exponentially — sixteen levels of
 * `anyOf: [{$ref: prev}, {$ref: prev}]` are 1.2 KB of text and 65,536 paths to try for one value —
 * so a schema is refused before it is compiled when the count passes a bound. References are
 * resolved as a validator resolves them: JSON pointers, `$id`s (absolute or relative to the base
 * they are in), `$anchor`s and old-style `$id: "#name"` anchors; a reference that leads nowhere
 * here makes the count infinite (nothing here can prove it cheap). A `$ref` back into itself is
 * unrolled as deep as a request's JSON may nest (data that deep is what it walks), so a plain tree
 * schema costs its size times that depth, and a branching one is refused. Memoized per target and
 * depth, and the walk itself is bounded.
 */
import { MAX_JSON_DEPTH } from "../protocol/limits.ts";

export const MAX_SCHEMA_EXPANSION = 20_000;
/** Nodes visited while counting, whatever the schema's shape. */
const MAX_VISITS = 200_000;
/** Keys whose values map names to schemas. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(["properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"]);
/** Keys of a schema whose values are data, not schemas: they cost nothing to walk. */
const DATA_KEYS: ReadonlySet<string> = new Set(["examples", "default", "description", "title", "$comment"]);
/** A regular expression is compiled by the linear engine (~0.6 ms each) and run per value: it counts as this many nodes. */
const PATTERN_COST = 100;
/** Keys whose value is a reference. `$recursiveRef` and `$dynamicRef` are counted as plain refs. */
const REF_KEYS: ReadonlySet<string> = new Set(["$ref", "$recursiveRef", "$dynamicRef"]);
const ROOT_BASE = "toolpool-schema:/root";

interface Targets {
  /** Schema resources by their absolute URI (without fragment), with the base inside them. */
  documents: Map<string, unknown>;
  /** Anchors by `<document URI>#<name>`. */
  anchors: Map<string, { node: unknown; base: string }>;
}

export function schemaExpansion(schema: unknown): number {
  const targets = collectTargets(schema);
  const memo = new Map<string, number>();
  const open = new Map<string, number>();
  let visits = 0;

  const cost = (node: unknown, depth: number, base: string): number => {
    if (++visits > MAX_VISITS) return Number.POSITIVE_INFINITY;
    if (Array.isArray(node)) {
      let sum = 0;
      for (const item of node) if ((sum += cost(item, depth, base)) > MAX_SCHEMA_EXPANSION) break;
      return sum;
    }
    if (typeof node !== "object" || node === null) return 0;
    const here = baseOf(node, base);
    let total = 1;
    for (const [key, value] of Object.entries(node)) {
      // Definitions cost only where they are used.
      if (key === "$defs" || key === "definitions") continue;
      if (REF_KEYS.has(key)) total += typeof value === "string" ? refCost(value, depth, here) : Number.POSITIVE_INFINITY;
      else if (key === "enum" || key === "const") total += dataNodes(value);
      else if (key === "pattern") total += PATTERN_COST;
      else if (key === "patternProperties") total += mapCost(value, depth, here) + PATTERN_COST * keyCount(value);
      else if (SCHEMA_MAPS.has(key)) total += mapCost(value, depth, here);
      else if (!DATA_KEYS.has(key)) total += cost(value, depth, here);
      if (total > MAX_SCHEMA_EXPANSION) return total;
    }
    return total;
  };
  // `enum` and `const` are compiled into code and compared value by value: each node counts.
  const dataNodes = (value: unknown): number => {
    if (++visits > MAX_VISITS) return Number.POSITIVE_INFINITY;
    if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + dataNodes(item), 1);
    if (typeof value === "object" && value !== null) return Object.values(value).reduce((sum: number, item) => sum + dataNodes(item), 1);
    return 1;
  };
  // Under `properties` the keys are names ("default", "enum" are fine names): every value is a schema.
  const mapCost = (map: unknown, depth: number, base: string): number => {
    if (typeof map !== "object" || map === null || Array.isArray(map)) return cost(map, depth, base);
    let sum = 1;
    for (const value of Object.values(map)) if ((sum += cost(value, depth, base)) > MAX_SCHEMA_EXPANSION) break;
    return sum;
  };
  const refCost = (ref: string, depth: number, base: string): number => {
    const target = resolveRef(ref, base, schema, targets);
    if (target === undefined) return Number.POSITIVE_INFINITY;
    const reentered = (open.get(target.key) ?? 0) > 0;
    if (reentered && depth <= 0) return 1;
    const next = reentered ? depth - 1 : depth;
    const memoKey = `${next}@${target.key}`;
    const known = memo.get(memoKey);
    if (known !== undefined) return known;
    open.set(target.key, (open.get(target.key) ?? 0) + 1);
    const counted = cost(target.node, next, target.base);
    open.set(target.key, open.get(target.key)! - 1);
    memo.set(memoKey, counted);
    return counted;
  };
  return cost(schema, MAX_JSON_DEPTH, ROOT_BASE);
}

function keyCount(map: unknown): number {
  return typeof map === "object" && map !== null && !Array.isArray(map) ? Object.keys(map).length : 0;
}

/** Whether a schema asks too much of a validator (see schemaExpansion). */
export function tooCostlySchema(schema: unknown): boolean {
  return schemaExpansion(schema) > MAX_SCHEMA_EXPANSION;
}

/** The base URI inside `node`: its `$id` (not an old-style `#anchor` one) resolved against `base`. */
function baseOf(node: object, base: string): string {
  const id = (node as { $id?: unknown }).$id;
  if (typeof id !== "string" || id.startsWith("#")) return base;
  const resolved = resolveUri(id, base);
  return resolved === undefined ? base : withoutFragment(resolved);
}

function collectTargets(schema: unknown): Targets {
  const targets: Targets = { documents: new Map([[ROOT_BASE, schema]]), anchors: new Map() };
  let visits = 0;
  const walk = (node: unknown, base: string): void => {
    if (++visits > MAX_VISITS) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, base);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const record = node as Record<string, unknown>;
    const here = baseOf(node, base);
    if (here !== base) targets.documents.set(here, node);
    const anchor = typeof record.$id === "string" && record.$id.startsWith("#") ? record.$id.slice(1) : undefined;
    for (const name of [anchor, record.$anchor, record.$dynamicAnchor]) {
      if (typeof name === "string") targets.anchors.set(`${here}#${name}`, { node, base: here });
    }
    for (const [key, value] of Object.entries(record)) if (!DATA_KEYS.has(key)) walk(value, here);
  };
  walk(schema, ROOT_BASE);
  return targets;
}

/** Where a reference leads: the node, the base inside it, and a key naming it for the memo. */
function resolveRef(ref: string, base: string, root: unknown, targets: Targets): { node: unknown; base: string; key: string } | undefined {
  const resolved = resolveUri(ref, base);
  if (resolved === undefined) return undefined;
  const document = withoutFragment(resolved);
  const hashAt = resolved.indexOf("#");
  const fragment = hashAt < 0 ? "" : decodeFragment(resolved.slice(hashAt + 1));
  if (fragment === undefined) return undefined;
  const node = document === ROOT_BASE ? root : targets.documents.get(document);
  if (node === undefined) return undefined;
  if (fragment === "") return { node, base: document, key: document };
  if (fragment.startsWith("/")) {
    const pointed = resolvePointer(node, fragment);
    return pointed === undefined ? undefined : { node: pointed, base: document, key: `${document}#${fragment}` };
  }
  const anchored = targets.anchors.get(`${document}#${fragment}`);
  return anchored && { ...anchored, key: `${document}#${fragment}` };
}

function resolveUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

function withoutFragment(uri: string): string {
  const hashAt = uri.indexOf("#");
  return hashAt < 0 ? uri : uri.slice(0, hashAt);
}

function decodeFragment(fragment: string): string | undefined {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}

/** A JSON Pointer (`/$defs/a~1b`) into `root`, or undefined when it leads nowhere. */
function resolvePointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
