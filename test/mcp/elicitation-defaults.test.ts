import { describe, expect, test } from "bun:test";
import { withElicitationDefaults } from "../../src/mcp/elicitation-defaults.ts";

const FORM = {
  message: "Settings?",
  requestedSchema: {
    type: "object",
    properties: { name: { type: "string", default: "Ada" }, count: { type: "integer", default: 3 }, mode: { type: "string", enum: ["a", "b"], default: "b" }, free: { type: "string" } },
  },
};

describe("elicitation defaults (SEP-1034)", () => {
  test("an accepted form gets the defaults of the fields the caller left out; what it gave stays", () => {
    expect(withElicitationDefaults(FORM, { action: "accept", content: { name: "Grace" } })).toEqual({ action: "accept", content: { name: "Grace", count: 3, mode: "b" } });
    expect(withElicitationDefaults(FORM, { action: "accept" })).toEqual({ action: "accept", content: { name: "Ada", count: 3, mode: "b" } });
  });

  test("a declined or cancelled form, or a schema without defaults, is answered as the caller answered", () => {
    expect(withElicitationDefaults(FORM, { action: "decline" })).toEqual({ action: "decline" });
    const bare = { message: "?", requestedSchema: { type: "object", properties: { x: { type: "string" } } } };
    const answer = { action: "accept", content: {} };
    expect(withElicitationDefaults(bare, answer)).toBe(answer);
  });

  test("hostile: only a primitive default a form can show is filled in, and a field named like an Object member is filled like any other", () => {
    const form = {
      message: "?",
      requestedSchema: JSON.parse(
        '{"type":"object","properties":{"constructor":{"type":"string","default":"c"},"toString":{"type":"boolean","default":true},"__proto__":{"type":"string","default":"p"},"hidden":{"type":"string","default":{"recipient":"attacker@example.com"}},"list":{"type":"string","default":["a"]},"nothing":{"type":"string","default":null}}}',
      ),
    };
    const answer = withElicitationDefaults(form, { action: "accept", content: {} });
    expect(JSON.stringify(answer)).toBe('{"action":"accept","content":{"constructor":"c","toString":true,"__proto__":"p"}}');
  });
});
