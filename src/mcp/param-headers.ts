/**
 * MCP 2026-07-28 over Streamable HTTP: a tool's input schema may mark parameters with
 * `x-mcp-header: "Name"`, and each call then carries the argument's value in `Mcp-Param-Name` too
 * (so proxies and load balancers can route without reading the body). A tool whose annotations
 * break the rules (empty or non-token name, a name used twice ignoring case, a non-primitive or
 * `number` parameter, a parameter reached through anything but `properties`) MUST be left out of
 * the listing, with a warning. Header values that are not plain visible ASCII (or that look like
 * the encoded form) travel Base64-encoded as `=?base64?…?=`, and so does an unsafe `Mcp-Name`.
 * Bounded: the walk stops at MAX_DEPTH levels and MAX_NODES schema nodes (a deeper schema is refused).
 */

import { encodeHeaderValue } from "../protocol/header-value.ts";

/** Where one annotated parameter sits (its chain of `properties` keys) and its header name. */
export interface ParamHeader {
  path: readonly string[];
  header: string;
}

const MAX_DEPTH = 32;
const MAX_NODES = 5_000;
/** RFC 9110 `token`: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES: ReadonlySet<unknown> = new Set(["string", "integer", "boolean"]);
/** Keywords whose values are data, not schemas: an `x-mcp-header` inside them annotates nothing. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(["const", "enum", "default", "examples", "example"]);

/** The tool's header parameters, or why its definition must be rejected. */
export function paramHeadersOf(inputSchema: unknown): { ok: true; params: ParamHeader[] } | { ok: false; reason: string } {
  const params: ParamHeader[] = [];
  const seen = new Map<string, string>();
  let nodes = 0;
  let problem: string | undefined;
  const visit = (node: unknown, path: string[] | undefined, depth: number): void => {
    if (problem !== undefined || typeof node !== "object" || node === null) return;
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) {
      problem = `its input schema is too large to check for x-mcp-header (over ${MAX_NODES} nodes or ${MAX_DEPTH} levels)`;
      return;
    }
    if (Array.isArray(node)) {
      for (const item of node) visit(item, undefined, depth + 1);
      return;
    }
    const schema = node as Record<string, unknown>;
    if ("x-mcp-header" in schema) {
      problem = headerProblem(schema, path, seen);
      if (problem !== undefined) return;
      const header = schema["x-mcp-header"] as string;
      seen.set(header.toLowerCase(), header);
      params.push({ path: path ?? [], header });
    }
    for (const [key, value] of Object.entries(schema)) {
      if (DATA_KEYWORDS.has(key) || key === "x-mcp-header") continue;
      if (key === "properties" && typeof value === "object" && value !== null && !Array.isArray(value)) {
        // Only a chain of `properties` keys from the root is statically reachable.
        for (const [name, child] of Object.entries(value)) visit(child, path && [...path, name], depth + 1);
      } else {
        visit(value, undefined, depth + 1);
      }
    }
  };
  visit(inputSchema, [], 0);
  return problem === undefined ? { ok: true, params } : { ok: false, reason: problem };
}

function headerProblem(schema: Record<string, unknown>, path: string[] | undefined, seen: Map<string, string>): string | undefined {
  const header = schema["x-mcp-header"];
  const where = path === undefined ? "a schema not reached through properties alone" : `parameter ${JSON.stringify(path.join("."))}`;
  if (typeof header !== "string" || header === "") return `its x-mcp-header on ${where} is empty or not a string`;
  const shown = JSON.stringify(header.slice(0, 64));
  if (!TOKEN.test(header)) return `its x-mcp-header ${shown} is not an HTTP header-name token`;
  if (path === undefined) return `its x-mcp-header ${shown} is on a schema not reached through properties alone (inside items, a composition, a condition or a $ref)`;
  if (path.length === 0) return `its x-mcp-header ${shown} is on the schema root, not on a parameter`;
  const clash = seen.get(header.toLowerCase());
  if (clash !== undefined) return `its x-mcp-header ${shown} repeats ${JSON.stringify(clash)} (names must differ ignoring case)`;
  if (!PRIMITIVE_TYPES.has(schema.type)) return `its x-mcp-header ${shown} is on ${where} of type ${JSON.stringify(schema.type ?? "(none)")}; only string, integer and boolean parameters may be mirrored`;
  return undefined;
}

/** The `Mcp-Param-*` headers of one call: each annotated argument present with a primitive value. */
export function paramHeaderValues(params: readonly ParamHeader[], args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    let value: unknown = args;
    for (const key of param.path) value = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
    const text = typeof value === "string" ? value : typeof value === "boolean" ? String(value) : Number.isSafeInteger(value) ? String(value) : undefined;
    if (text !== undefined) headers[`mcp-param-${param.header.toLowerCase()}`] = encodeHeaderValue(text);
  }
  return headers;
}

