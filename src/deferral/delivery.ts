/**
 * How deferred tools reach the model (SPEC §6):
 *
 * - `native`: Anthropic's own mechanism — discovered tools ride in the tools array with
 *   `defer_loading: true` and ToolSearch answers with `tool_reference` blocks. Needs a first-party
 *   endpoint (proxies tend to reject the beta shapes), the Anthropic format, and a model that is
 *   not on the negative list.
 * - `proxy`: works anywhere — a fixed array with ToolSearch (answers with schemas as text) and
 *   ExecuteExtraTool (runs what was found).
 * - `mid-conversation`: Anthropic's mid-conversation tool changes — `tools[]` is fixed when the
 *   session opens and never changes; discoveries arrive as `role: "system"` messages with
 *   `tool_addition` blocks, tools that leave as `tool_removal` blocks (assembly/mid-conversation.ts).
 *   Chosen only when asked for (session option or config): `auto` never picks it. Like native it
 *   needs the Anthropic format and a model with tool references.
 * - `standard`: every tool in full.
 *
 * `auto` picks native when all of native's conditions hold, else proxy. An explicit `native` is
 * honoured on any endpoint (the operator knows their proxy), but not where it cannot work: the
 * OpenAI format, or a model without tool references.
 */
import { supportsToolReference } from "./model-gate.ts";

export type RequestedDelivery = "auto" | "native" | "proxy" | "mid-conversation" | "standard";
export type Delivery = "native" | "proxy" | "mid-conversation" | "standard";

/** Every delivery a session or the config may ask for (the protocol's and the config's enum). */
export const REQUESTED_DELIVERIES = ["auto", "native", "proxy", "mid-conversation", "standard"] as const;
export type WireFormat = "anthropic" | "openai";

export type DeliveryReason =
  | "requested"
  | "first_party_anthropic"
  | "third_party_base_url"
  | "non_anthropic_provider"
  | "openai_format"
  | "model_unsupported"
  /** The mode defers nothing this request, so every tool goes in full (see the mode's reason). */
  | "not_deferring"
  /** Every tool in full would cross the tools array limit (maxToolsInArray), so this request defers (assembly/array-guard.ts). */
  | "tool_limit"
  /** Every tool in full would send a tool the operator's config defers always (`defer`), so this request defers (assembly/array-guard.ts). */
  | "operator_defer";

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
  if (requested === "native" || requested === "mid-conversation") return { delivery: requested, reason: "requested" };
  if (input.provider !== "anthropic") return { delivery: "proxy", reason: "non_anthropic_provider" };
  if (!isFirstPartyAnthropicUrl(input.baseUrl)) return { delivery: "proxy", reason: "third_party_base_url" };
  return { delivery: "native", reason: "first_party_anthropic" };
}
