/**
 * How deferred tools reach the model (SPEC §6):
 *
 * - `native`: Anthropic's own mechanism — discovered tools ride in the tools array with
 *   `defer_loading: true` and ToolSearch answers with `tool_reference` blocks. Needs a first-party
 *   endpoint (proxies tend to reject the beta shapes), the Anthropic format, and a model that is
 *   not on the negative list.
 * - `proxy`: works anywhere — a fixed array with ToolSearch (answers with schemas as text) and
 *   ExecuteExtraTool (runs what was found).
 * - `standard`: every tool in full.
 *
 * `auto` picks native when all of native's conditions hold, else proxy. An explicit `native` is
 * honoured on any endpoint (the operator knows their proxy), but not where it cannot work: the
 * OpenAI format, or a model without tool references.
 */
import { supportsToolReference } from "./model-gate.ts";

export type RequestedDelivery = "auto" | "native" | "proxy" | "standard";
export type Delivery = "native" | "proxy" | "standard";
export type WireFormat = "anthropic" | "openai";

export type DeliveryReason =
  | "requested"
  | "first_party_anthropic"
  | "third_party_base_url"
  | "non_anthropic_provider"
  | "openai_format"
  | "model_unsupported"
  /** The mode defers nothing this request, so every tool goes in full (see the mode's reason). */
  | "not_deferring";

export interface DeliveryDecision {
  delivery: Delivery;
  reason: DeliveryReason;
}

export interface DeliveryInput {
  requested: RequestedDelivery;
  provider: string;
  /** The endpoint the client sends requests to; unset means the provider's default. */
  baseUrl?: string | null | undefined;
  model: string;
  format: WireFormat;
  unsupportedModels?: readonly string[] | undefined;
}

/** The Anthropic API's own host; anything else under ANTHROPIC_BASE_URL is a proxy or gateway. */
export const FIRST_PARTY_ANTHROPIC_HOST = "api.anthropic.com";

export function isFirstPartyAnthropicUrl(baseUrl: string | null | undefined): boolean {
  if (baseUrl === undefined || baseUrl === null || baseUrl.trim() === "") return true;
  try {
    return new URL(baseUrl).hostname.toLowerCase() === FIRST_PARTY_ANTHROPIC_HOST;
  } catch {
    return false;
  }
}

export function decideDelivery(input: DeliveryInput): DeliveryDecision {
  const { requested } = input;
  if (requested === "standard" || requested === "proxy") return { delivery: requested, reason: "requested" };
  if (input.format === "openai") return { delivery: "proxy", reason: "openai_format" };
  if (!supportsToolReference(input.model, input.unsupportedModels)) return { delivery: "proxy", reason: "model_unsupported" };
  if (requested === "native") return { delivery: "native", reason: "requested" };
  if (input.provider !== "anthropic") return { delivery: "proxy", reason: "non_anthropic_provider" };
  if (!isFirstPartyAnthropicUrl(input.baseUrl)) return { delivery: "proxy", reason: "third_party_base_url" };
  return { delivery: "native", reason: "first_party_anthropic" };
}
