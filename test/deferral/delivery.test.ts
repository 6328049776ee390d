import { describe, expect, test } from "bun:test";
import { decideDelivery, isFirstPartyAnthropicUrl, type DeliveryInput } from "../../src/deferral/delivery.ts";

const input = (overrides: Partial<DeliveryInput>): DeliveryInput => ({
  requested: "auto",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  format: "anthropic",
  ...overrides,
});

describe("delivery", () => {
  test.each([
    ["auto, no base URL", input({}), "native", "first_party_anthropic"],
    ["auto, empty base URL", input({ baseUrl: "" }), "native", "first_party_anthropic"],
    ["auto, null base URL", input({ baseUrl: null }), "native", "first_party_anthropic"],
    ["auto, api.anthropic.com", input({ baseUrl: "https://api.anthropic.com" }), "native", "first_party_anthropic"],
    ["auto, api.anthropic.com/v1", input({ baseUrl: "https://API.anthropic.com/v1/" }), "native", "first_party_anthropic"],
    ["auto, a gateway", input({ baseUrl: "https://llm-gateway.corp.example/anthropic" }), "proxy", "third_party_base_url"],
    ["auto, a look-alike host", input({ baseUrl: "https://api.anthropic.com.evil.example" }), "proxy", "third_party_base_url"],
    ["auto, a malformed URL", input({ baseUrl: "not a url" }), "proxy", "third_party_base_url"],
    ["auto, provider openai", input({ provider: "openai", model: "gpt-4o" }), "proxy", "non_anthropic_provider"],
    ["auto, provider other", input({ provider: "other" }), "proxy", "non_anthropic_provider"],
    ["auto, haiku", input({ model: "claude-haiku-4-5" }), "proxy", "model_unsupported"],
    ["auto, haiku allowed by an empty list", input({ model: "claude-haiku-4-5", unsupportedModels: [] }), "native", "first_party_anthropic"],
    ["auto, OpenAI format", input({ format: "openai" }), "proxy", "openai_format"],
    ["native on a gateway is honoured", input({ requested: "native", baseUrl: "https://gw.example" }), "native", "requested"],
    ["native for another provider is honoured", input({ requested: "native", provider: "other" }), "native", "requested"],
    ["native on haiku falls back to proxy", input({ requested: "native", model: "claude-3-haiku" }), "proxy", "model_unsupported"],
    ["native in OpenAI format falls back to proxy", input({ requested: "native", format: "openai" }), "proxy", "openai_format"],
    ["proxy", input({ requested: "proxy" }), "proxy", "requested"],
    ["standard", input({ requested: "standard" }), "standard", "requested"],
    ["mid-conversation is honoured on a gateway", input({ requested: "mid-conversation", baseUrl: "https://gw.example" }), "mid-conversation", "requested"],
    ["mid-conversation in OpenAI format falls back to proxy", input({ requested: "mid-conversation", format: "openai" }), "proxy", "openai_format"],
    ["mid-conversation on haiku falls back to proxy", input({ requested: "mid-conversation", model: "claude-3-haiku" }), "proxy", "model_unsupported"],
  ] as const)("%s", (_case, decisionInput, delivery, reason) => {
    expect(decideDelivery(decisionInput)).toEqual({ delivery, reason });
  });

  test.each([
    [undefined, true],
    ["https://api.anthropic.com", true],
    ["http://localhost:8080", false],
    ["https://anthropic.com", false],
  ] as const)("first-party %p → %p", (url, expected) => {
    expect(isFirstPartyAnthropicUrl(url)).toBe(expected);
  });
});
