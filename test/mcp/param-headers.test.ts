import { describe, expect, test } from "bun:test";
import { paramHeaderValues, paramHeadersOf } from "../../src/mcp/param-headers.ts";
import { decodeHeaderValue, encodeHeaderValue } from "../../src/protocol/header-value.ts";
import { withRevisionHeaders } from "../../src/mcp/revision-headers.ts";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const object = (properties: Record<string, unknown>) => ({ type: "object", properties });

describe("x-mcp-header annotations (2026-07-28, Streamable HTTP)", () => {
  test("parameters reached through properties alone, nested ones included, are mirrored", () => {
    const schema = object({ region: { type: "string", "x-mcp-header": "Region" }, opts: object({ dry: { type: "boolean", "x-mcp-header": "Dry-Run" } }), query: { type: "string" } });
    expect(paramHeadersOf(schema)).toEqual({ ok: true, params: [{ path: ["region"], header: "Region" }, { path: ["opts", "dry"], header: "Dry-Run" }] });
  });

  test("each broken rule rejects the tool, naming the rule", () => {
    const reasons = [
      object({ a: { type: "string", "x-mcp-header": "" } }),
      object({ a: { type: "string", "x-mcp-header": "Has Space" } }),
      object({ a: { type: "string", "x-mcp-header": "Colon:" } }),
      object({ a: { type: "string", "x-mcp-header": "Région" } }),
      object({ a: { type: "string", "x-mcp-header": "X\r\nInjected: 1" } }),
      object({ a: { type: "string", "x-mcp-header": "Dup" }, b: { type: "integer", "x-mcp-header": "dup" } }),
      object({ a: { type: "number", "x-mcp-header": "Num" } }),
      object({ a: { type: "object", "x-mcp-header": "Obj" } }),
      object({ a: { type: "array", items: { type: "string", "x-mcp-header": "InItems" } } }),
      { ...object({}), anyOf: [object({ a: { type: "string", "x-mcp-header": "InAnyOf" } })] },
      { type: "string", "x-mcp-header": "Root" },
    ].map((schema) => {
      const checked = paramHeadersOf(schema);
      return checked.ok ? "accepted" : checked.reason;
    });
    expect(reasons).toEqual([
      'its x-mcp-header on parameter "a" is empty or not a string',
      'its x-mcp-header "Has Space" is not an HTTP header-name token',
      'its x-mcp-header "Colon:" is not an HTTP header-name token',
      'its x-mcp-header "Région" is not an HTTP header-name token',
      'its x-mcp-header "X\\r\\nInjected: 1" is not an HTTP header-name token',
      'its x-mcp-header "dup" repeats "Dup" (names must differ ignoring case)',
      'its x-mcp-header "Num" is on parameter "a" of type "number"; only string, integer and boolean parameters may be mirrored',
      'its x-mcp-header "Obj" is on parameter "a" of type "object"; only string, integer and boolean parameters may be mirrored',
      'its x-mcp-header "InItems" is on a schema not reached through properties alone (inside items, a composition, a condition or a $ref)',
      'its x-mcp-header "InAnyOf" is on a schema not reached through properties alone (inside items, a composition, a condition or a $ref)',
      'its x-mcp-header "Root" is on the schema root, not on a parameter',
    ]);
  });

  test("a word in const, enum or default that happens to be x-mcp-header annotates nothing; a huge schema is refused, not walked", () => {
    expect(paramHeadersOf(object({ a: { type: "object", default: { "x-mcp-header": "no" } } }))).toEqual({ ok: true, params: [] });
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 40; level++) deep = object({ next: deep });
    expect(paramHeadersOf(deep).ok).toBe(false);
  });

  test("values: strings as they are, integers and booleans as text, unsafe text Base64-encoded, absent and null left out", () => {
    const params = [
      { path: ["s"], header: "S" },
      { path: ["i"], header: "I" },
      { path: ["b"], header: "B" },
      { path: ["u"], header: "U" },
      { path: ["n"], header: "N" },
      { path: ["gone"], header: "Gone" },
      { path: ["big"], header: "Big" },
    ];
    expect(paramHeaderValues(params, { s: "us-west1", i: -7, b: false, u: "Hello, 世界", n: null, big: 2 ** 60 })).toEqual({
      "mcp-param-s": "us-west1",
      "mcp-param-i": "-7",
      "mcp-param-b": "false",
      "mcp-param-u": "=?base64?SGVsbG8sIOS4lueVjA==?=",
    });
    expect([" padded ", "line1\nline2", "a\tb", "=?base64?literal?=", "inner space", ""].map(encodeHeaderValue)).toEqual([
      "=?base64?IHBhZGRlZCA=?=",
      "=?base64?bGluZTEKbGluZTI=?=",
      "=?base64?YQli?=",
      "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
      "inner space",
      "",
    ]);
    // The bridge reads them back; a malformed encoded form is refused, never guessed at.
    expect(["=?base64?SGVsbG8sIOS4lueVjA==?=", "plain", "=?base64?YQli?=", "=?base64?not base64?=", "=?base64?YQ?=", "=?base64?/w==?="].map(decodeHeaderValue)).toEqual([
      "Hello, 世界",
      "plain",
      "a\tb",
      undefined,
      undefined,
      undefined,
    ]);
  });

  test("the transport's fetch mirrors a call's annotated arguments, for that tool only", async () => {
    const sent: Headers[] = [];
    const fetch = withRevisionHeaders(async (_url, init) => {
      sent.push(new Headers(init?.headers));
      return new Response("{}", { headers: { "content-type": "application/json" } });
    }, (tool) => (tool === "sql" ? [{ path: ["region"], header: "Region" }] : undefined));
    const call = (name: string) => ({ method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { region: "eu" }, _meta: META } }) });
    await fetch("http://127.0.0.1/", call("sql"));
    await fetch("http://127.0.0.1/", call("other"));
    expect(sent.map((headers) => headers.get("mcp-param-region"))).toEqual(["eu", null]);
  });

  test("hostile: any value the decoder would read as an encoding (the prefix in any case, unclosed) travels encoded, and reads back as itself", () => {
    const values = ["=?base64?abc", "=?BASE64?YQ==?=", "=?Base64?", "=?base64?not base64?="];
    expect(values.map((value) => decodeHeaderValue(encodeHeaderValue(value)))).toEqual(values);
  });
});
