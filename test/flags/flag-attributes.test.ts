import { describe, expect, test } from "bun:test";
import { globalFlagAttributes, sessionFlagAttributes, stableHostId } from "../../src/flags/flag-attributes.ts";

describe("flag attributes", () => {
  test("the host id is stable, hashed, and differs by host and user", () => {
    expect(stableHostId("box", "ada")).toBe(stableHostId("box", "ada"));
    expect(stableHostId("box", "ada")).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set([stableHostId("box", "ada"), stableHostId("box", "bob"), stableHostId("other", "ada")]).size).toBe(3);
    expect(stableHostId()).toMatch(/^[0-9a-f]{16}$/);
  });

  test("global attributes name the tier, version and id", () => {
    expect(globalFlagAttributes({ tier: "pro", version: "0.1.0" }, "abc")).toEqual({ tier: "pro", version: "0.1.0", id: "abc" });
  });

  test("session attributes: extras, then the named fields; tier and version cannot be claimed", () => {
    const attributes = sessionFlagAttributes({
      model: "claude-opus-4",
      provider: "anthropic",
      clientName: "harness",
      attributes: { tier: "pro", version: "9.9.9", id: "user-7", team: "infra", model: "spoofed" },
    });
    expect(attributes).toEqual({ id: "user-7", team: "infra", model: "claude-opus-4", provider: "anthropic", clientName: "harness" });
    expect(Object.isFrozen(attributes)).toBe(true);
  });
});
