/**
 * Pins what the model sees of each core built-in: its name and wire input schema. A change here is
 * a reviewable diff (and a prompt-cache break for every client), never an accident.
 */
import { describe, expect, test } from "bun:test";
import { builtinTools } from "../../src/builtin/list.ts";
import { CORE_TOOLS } from "./fixture.ts";

describe("core built-in wire schemas", () => {
  for (const tool of CORE_TOOLS) {
    test(`${tool.name} schema`, () => {
      // Serialized, so the snapshot pins property order too: the bytes are what the prompt cache sees.
      expect(JSON.stringify({ name: tool.name, input_schema: tool.inputJSONSchema }, null, 2)).toMatchSnapshot();
    });
  }

  test("every core tool is in the ungated built-in list", () => {
    const listed = builtinTools().map((tool) => tool.name);
    for (const tool of CORE_TOOLS) expect(listed).toContain(tool.name);
  });

  test("descriptions are ASCII prose and every property is described", () => {
    for (const tool of CORE_TOOLS) {
      expect(tool.description.length).toBeGreaterThan(200);
      expect(/^[\x20-\x7e\n]*$/.test(tool.description)).toBe(true);
      const properties = tool.inputJSONSchema.properties as Record<string, { description?: string }>;
      for (const [name, property] of Object.entries(properties)) {
        expect({ tool: tool.name, name, described: typeof property.description === "string" }).toEqual({
          tool: tool.name,
          name,
          described: true,
        });
      }
      expect(tool.inputJSONSchema.additionalProperties).toBe(false);
    }
  });

  test("capabilities: readers are read-only and concurrency-safe, writers and Bash are neither", () => {
    const capabilities = Object.fromEntries(
      CORE_TOOLS.map((tool) => [tool.name, { readOnly: tool.isReadOnly({}), concurrent: tool.isConcurrencySafe({}) }]),
    );
    expect(capabilities).toEqual({
      Bash: { readOnly: false, concurrent: false },
      Read: { readOnly: true, concurrent: true },
      Write: { readOnly: false, concurrent: false },
      Edit: { readOnly: false, concurrent: false },
      Glob: { readOnly: true, concurrent: true },
      Grep: { readOnly: true, concurrent: true },
    });
  });
});
