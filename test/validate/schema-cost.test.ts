import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { JsonSchemaCompiler, MAX_CACHED_SCHEMAS, SchemaTooCostlyError } from "../../src/validate/ajv.ts";
import { MAX_SCHEMA_EXPANSION, schemaExpansion } from "../../src/validate/schema-cost.ts";
import { MAX_PROBLEMS } from "../../src/validate/validator.ts";

/** Sixteen levels of anyOf over the level below: 1.2 KB, 65,536 paths per value. */
function ladder(levels: number, at = "a") {
  const defs: Record<string, unknown> = { d0: { type: "string" } };
  for (let i = 1; i <= levels; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
  return { type: "object", $defs: defs, properties: { [at]: { $ref: `#/$defs/d${levels}` } } };
}

describe("schema expansion", () => {
  test("an anyOf ladder over shared definitions is refused, wherever it hides", () => {
    const { $defs, ...rest } = ladder(16);
    const underItems = { type: "array", $defs, items: rest };
    for (const schema of [ladder(16), ladder(16, "default"), ladder(16, "enum"), underItems]) {
      expect(schemaExpansion(schema)).toBeGreaterThan(MAX_SCHEMA_EXPANSION);
    }
    expect(schemaExpansion(ladder(4))).toBeLessThan(MAX_SCHEMA_EXPANSION);
  });

  test("references resolve as a validator resolves them: $id-relative URIs, $anchor and old-style #name anchors", () => {
    const chain = (ref: (i: number) => string, extra: Record<string, unknown>, anchor?: (i: number) => Record<string, unknown>) => {
      const definitions: Record<string, unknown> = { d0: { type: "string", ...anchor?.(0) } };
      for (let i = 1; i <= 22; i++) definitions[`d${i}`] = { ...anchor?.(i), anyOf: [{ $ref: ref(i - 1) }, { $ref: ref(i - 1) }] };
      return { ...extra, type: "object", properties: { x: { $ref: ref(22) } }, definitions };
    };
    const schemas = [
      chain((i) => `http://a.example/s#/definitions/d${i}`, { $id: "http://a.example/s" }),
      chain((i) => `s#/definitions/d${i}`, { $id: "http://a.example/s" }),
      chain((i) => `#a${i}`, {}, (i) => ({ $id: `#a${i}` })),
      chain((i) => `#a${i}`, {}, (i) => ({ $anchor: `a${i}` })),
    ];
    for (const schema of schemas) expect(schemaExpansion(schema)).toBeGreaterThan(MAX_SCHEMA_EXPANSION);
  });

  test("a reference that leads nowhere cannot be shown cheap", () => {
    expect(schemaExpansion({ type: "object", properties: { a: { $ref: "https://elsewhere.example/x.json" } } })).toBe(Number.POSITIVE_INFINITY);
    expect(schemaExpansion({ properties: { a: { $ref: "#/definitions/missing" } } })).toBe(Number.POSITIVE_INFINITY);
    expect(schemaExpansion({ properties: { a: { $ref: "#/definitions/here" } }, definitions: { here: { type: "string" } } })).toBeLessThan(10);
  });

  test("recursion: a tree schema passes; recursion that branches at every level is refused", () => {
    const tree = { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } } };
    expect(schemaExpansion(tree)).toBeLessThan(MAX_SCHEMA_EXPANSION);
    const branching = { anyOf: [{ type: "object", properties: { a: { $ref: "#" } } }, { type: "object", properties: { b: { $ref: "#" } } }] };
    expect(schemaExpansion(branching)).toBeGreaterThan(MAX_SCHEMA_EXPANSION);
    expect(schemaExpansion({ $ref: "#" })).toBeLessThan(MAX_SCHEMA_EXPANSION);
  });

  test("the real servers' schemas (bench/data) are far below the bound", () => {
    const catalogs = JSON.parse(readFileSync(join(import.meta.dir, "../../bench/data/real-servers.json"), "utf8")) as { servers: { tools: { inputSchema?: unknown }[] }[] };
    const costs = catalogs.servers.flatMap((server) => server.tools.map((tool) => schemaExpansion(tool.inputSchema ?? {})));
    expect(costs.length).toBeGreaterThan(400);
    // The largest here (google-calendar's search-events: a few date patterns) counts 455; over
    // ../shared/eval's 7,108 tools the largest (recursive chart trees, unrolled as deep as JSON may
    // nest) counts 414.
    expect(Math.max(...costs)).toBeLessThan(MAX_SCHEMA_EXPANSION / 20);
  });

  test("the compiler refuses a costly schema before compiling it; its MCP tool's calls go to the server unchecked", () => {
    const compiler = new JsonSchemaCompiler();
    expect(compiler.compile(ladder(16))).toBeInstanceOf(SchemaTooCostlyError);
    expect(compiler.validator("mcp__x__y", ladder(16))({ a: 1 })).toEqual({ ok: true, value: { a: 1 } });
  });
});

describe("validation answers stay small", () => {
  test("300,000 wrong items are twenty problems and a count, not megabytes", () => {
    const validate = new JsonSchemaCompiler().validator("T", { type: "object", properties: { a: { type: "array", items: { type: "string" } } } });
    const outcome = validate({ a: new Array(300_000).fill(1) });
    expect(outcome.ok).toBe(false);
    const message = outcome.ok ? "" : outcome.message;
    expect(message.split("\n").filter((line) => line.startsWith("- a.")).length).toBe(MAX_PROBLEMS);
    expect(message).toContain(`… and ${(300_000 - MAX_PROBLEMS).toLocaleString("en-US")} more problems`);
    expect(message.length).toBeLessThan(5_000);
  });

  test("a huge field name is cut", () => {
    const validate = new JsonSchemaCompiler().validator("T", { type: "object", additionalProperties: false });
    const outcome = validate({ ["k".repeat(100_000)]: 1 });
    expect(outcome.ok ? "" : outcome.message.length).toBeLessThan(1_000);
  });
});

describe("compilations are bounded", () => {
  test("the cache keeps the most recently used; a dropped schema's validator still works", () => {
    const compiler = new JsonSchemaCompiler();
    const first = compiler.validator("T0", { type: "object", properties: { n: { type: "number" } } });
    expect(first({ n: "x" }).ok).toBe(false);
    for (let i = 0; i < MAX_CACHED_SCHEMAS + 50; i++) compiler.compile({ type: "object", properties: { [`p${i}`]: { type: "string" } } });
    expect(compiler.cacheSize).toBe(MAX_CACHED_SCHEMAS);
    expect([first({ n: 1 }).ok, first({ n: "x" }).ok]).toEqual([true, false]);
  });

  test("two servers may publish schemas with the same $id: each validates by its own", () => {
    const compiler = new JsonSchemaCompiler();
    const a = compiler.validator("A", { $id: "https://example.com/input", type: "object", properties: { n: { type: "number" } } });
    const b = compiler.validator("B", { $id: "https://example.com/input", type: "object", properties: { s: { type: "string" } } });
    expect([a({ n: 1 }).ok, a({ n: "x" }).ok, b({ s: "x" }).ok, b({ s: 1 }).ok]).toEqual([true, false, true, false]);
  });
});

describe("data in a schema counts too", () => {
  test("a 40,000-value enum and 2,000 patternProperties are refused; a real-sized enum is not", () => {
    expect(schemaExpansion({ enum: Array.from({ length: 40_000 }, (_, i) => i) })).toBeGreaterThan(MAX_SCHEMA_EXPANSION);
    expect(schemaExpansion({ enum: Array.from({ length: 20_000 }, (_, i) => [i]) })).toBeGreaterThan(MAX_SCHEMA_EXPANSION);
    const patterns = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`^p${i}$`, { type: "string" }]));
    expect(schemaExpansion({ type: "object", patternProperties: patterns })).toBeGreaterThan(MAX_SCHEMA_EXPANSION);
    expect(schemaExpansion({ type: "string", enum: Array.from({ length: 600 }, (_, i) => `zone-${i}`) })).toBeLessThan(MAX_SCHEMA_EXPANSION);
  });
});

describe("uniqueItems is checked in linear time, with JSON Schema's equality", () => {
  const validate = new JsonSchemaCompiler().validator("T", { type: "object", properties: { a: { type: "array", uniqueItems: true } } });
  test("30,000 distinct small arrays pass; one repeat fails with the reason", () => {
    const items = Array.from({ length: 30_000 }, (_, i) => [i]);
    expect(validate({ a: items }).ok).toBe(true);
    const repeated = validate({ a: [...items, [17]] });
    expect(repeated.ok ? "" : repeated.message).toContain("a: must NOT have duplicate items");
  });

  test("objects equal whatever their key order; 1 and 1.0 are one number; 1 and \"1\" are not", () => {
    expect(validate({ a: [{ x: 1, y: [2] }, { y: [2], x: 1 }] }).ok).toBe(false);
    expect(validate({ a: [1, 1.0] }).ok).toBe(false);
    expect(validate({ a: [1, "1", null, false, [], {}] }).ok).toBe(true);
  });
});
