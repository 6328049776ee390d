import { describe, expect, test } from "bun:test";
import { dispatchHarness } from "../helpers/dispatch-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";

const answerSchema = {
  type: "object",
  properties: { city: { type: "string" }, population: { type: "integer", minimum: 0 } },
  required: ["city", "population"],
  additionalProperties: false,
};

describe("StructuredOutput over the socket", () => {
  test("a session with an output schema gets a core StructuredOutput that validates the answer", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool] });
    using client = harness.peer();
    const { sessionId } = (await client.request("toolpool/session", { model: "gpt-5", format: "anthropic", delivery: "proxy", outputSchema: answerSchema })).result as { sessionId: string };
    const assembled = (await client.request("toolpool/assemble", { sessionId, messages: [] })).result as { tools: { name: string; input_schema: unknown }[] };
    expect(assembled.tools.map((tool) => tool.name)).toEqual(["Echo", "StructuredOutput"]);
    expect(assembled.tools[1]?.input_schema).toEqual(answerSchema);

    const invalid = (await client.request("toolpool/call", { sessionId, name: "StructuredOutput", input: { city: 7, population: -1 } })).result as { isError: boolean; content: { text: string }[] };
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]?.text).toContain("city");
    expect(invalid.content[0]?.text).toContain("population");

    const valid = (await client.request("toolpool/call", { sessionId, name: "StructuredOutput", input: { city: "Lyon", population: 522000 } })).result as Record<string, unknown>;
    expect(valid).toMatchObject({ isError: false, structuredContent: { city: "Lyon", population: 522000 } });
  });

  test("a schema that does not compile is refused with the field named, and no session is opened", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool] });
    using client = harness.peer();
    const refused = await client.request("toolpool/session", { outputSchema: { type: "object", properties: { x: { type: "no-such-type" } } } });
    expect(refused.error).toMatchObject({ code: -32602 });
    expect((refused.error as { message: string }).message).toContain('field "outputSchema"');
    const status = (await client.request("toolpool/status")).result as { sessions: { active: number } };
    expect(status.sessions.active).toBe(0);
  });

  test("a schema whose $refs expand exponentially is refused, and a flood of wrong items answers in a few lines", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool] });
    using client = harness.peer();
    const defs: Record<string, unknown> = { d0: { type: "string" } };
    for (let i = 1; i <= 16; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
    const refused = await client.request("toolpool/session", { outputSchema: { type: "object", $defs: defs, properties: { a: { $ref: "#/$defs/d16" } } } });
    expect((refused.error as { message: string }).message).toContain("outputSchema is refused: the schema expands to more than 20,000 nodes");

    const { sessionId } = (await client.request("toolpool/session", { outputSchema: { type: "object", properties: { a: { type: "array", items: { type: "string" } } } } })).result as { sessionId: string };
    const flood = (await client.request("toolpool/call", { sessionId, name: "StructuredOutput", input: { a: new Array(300_000).fill(1) } })).result as { isError: boolean; content: { text: string }[] };
    expect(flood.isError).toBe(true);
    expect(flood.content[0]!.text.length).toBeLessThan(5_000);
    expect(flood.content[0]!.text).toContain("more problems");
    expect((await client.request("ping")).result).toBeDefined();
  });

  test("what a session keeps is bounded: attributes (per request and merged over re-opens), schema size, path length", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool] });
    using client = harness.peer();
    const message = async (params: Record<string, unknown>) => ((await client.request("toolpool/session", params)).error as { message: string } | undefined)?.message ?? "";
    expect(await message({ attributes: { big: "x".repeat(5_000_000) } })).toContain("attributes");
    expect(await message({ attributes: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])) })).toContain("at most 64 attributes");
    expect(await message({ outputSchema: { type: "object", description: "x".repeat(70_000) } })).toContain("at most 64 KB");
    expect(await message({ cwd: `/${"a".repeat(5_000)}` })).toContain("cwd");
    const { sessionId } = (await client.request("toolpool/session", { attributes: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`a${i}`, i])) })).result as { sessionId: string };
    expect(await message({ sessionId, attributes: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`b${i}`, i])) })).toContain("a session keeps at most 64 attributes");
  });

  test("uniqueItems over 30,000 small arrays is answered, and another client is served meanwhile", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool] });
    using client = harness.peer();
    using other = harness.peer();
    const { sessionId } = (await client.request("toolpool/session", { outputSchema: { type: "object", properties: { a: { type: "array", uniqueItems: true } } } })).result as { sessionId: string };
    const items = Array.from({ length: 30_000 }, (_, i) => [i]);
    const [unique, repeated, ping] = await Promise.all([
      client.request("toolpool/call", { sessionId, name: "StructuredOutput", input: { a: items } }),
      client.request("toolpool/call", { sessionId, name: "StructuredOutput", input: { a: [...items, [7]] } }),
      other.request("ping"),
    ]);
    expect((unique.result as { isError: boolean }).isError).toBe(false);
    expect((repeated.result as { isError: boolean; content: { text: string }[] }).content[0]!.text).toContain("must NOT have duplicate items");
    expect(ping.result).toEqual({});
  });
});
