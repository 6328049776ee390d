import { describe, expect, test } from "bun:test";
import { definitionFingerprint, pinDefinition, type SerializedToolCache } from "../../src/assembly/schema-cache.ts";
import { mcp } from "./fixtures.ts";

describe("schema cache", () => {
  test("without a cache: the current definition", () => {
    const pinned = pinDefinition(mcp("a", "b"), "anthropic");
    expect(pinned.changedTo).toBeUndefined();
    expect(JSON.parse(pinned.bytes)).toEqual(pinned.base);
  });

  test("first use stores the bytes; later uses return them", () => {
    const cache: SerializedToolCache = new Map();
    const first = pinDefinition(mcp("a", "b"), "anthropic", cache);
    expect(cache.get("mcp__a__b")).toBe(first.bytes);
    const again = pinDefinition(mcp("a", "b"), "anthropic", cache);
    expect(again).toEqual(first);
  });

  test("a changed definition keeps the old bytes and reports the new fingerprint", () => {
    const cache: SerializedToolCache = new Map();
    const old = pinDefinition(mcp("a", "b", { description: "old" }), "anthropic", cache);
    const updated = mcp("a", "b", { description: "new" });
    const pinned = pinDefinition(updated, "anthropic", cache);
    expect(pinned.bytes).toBe(old.bytes);
    expect(pinned.base).toEqual(old.base);
    expect(pinned.changedTo).toBe(definitionFingerprint(pinDefinition(updated, "anthropic").bytes));
    expect(pinned.changedTo).toMatch(/^[0-9a-f]{12}$/);
  });

  test("an entry in the other format is replaced, not sent", () => {
    const cache: SerializedToolCache = new Map();
    pinDefinition(mcp("a", "b"), "anthropic", cache);
    const openai = pinDefinition(mcp("a", "b"), "openai", cache);
    expect(openai.base).toHaveProperty("type", "function");
    expect(openai.changedTo).toBeUndefined();
    expect(cache.get("mcp__a__b")).toBe(openai.bytes);
  });

  test("a corrupt entry is replaced", () => {
    const cache: SerializedToolCache = new Map([["mcp__a__b", "{not json"]]);
    const pinned = pinDefinition(mcp("a", "b"), "anthropic", cache);
    expect(cache.get("mcp__a__b")).toBe(pinned.bytes);
  });
});
