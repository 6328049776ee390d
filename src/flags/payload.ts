/**
 * The GrowthBook payload format (`{features: {key: {defaultValue, rules: [...]}}}`), checked before
 * the SDK sees it: the SDK trusts its input, and a payload that is half right must be refused whole
 * so the last good one stays in force. The same check serves the features file, the API host and
 * the disk cache.
 */
import type { FeatureApiResponse } from "@growthbook/growthbook";
import { z } from "zod";

/** Far above any real flag payload; bounds what a file or a misbehaving host can make us parse and hold. */
export const MAX_PAYLOAD_BYTES = 2 * 1024 * 1024;

const ruleSchema = z.looseObject({
  id: z.string().optional(),
  condition: z.record(z.string(), z.unknown()).optional(),
  variations: z.array(z.unknown()).optional(),
  weights: z.array(z.number()).optional(),
  coverage: z.number().optional(),
  hashAttribute: z.string().optional(),
  key: z.string().optional(),
});

const featureSchema = z.looseObject({
  defaultValue: z.unknown().optional(),
  rules: z.array(ruleSchema).optional(),
});

const payloadSchema = z.looseObject({
  features: z.record(z.string(), featureSchema),
  encryptedFeatures: z.never({ error: "encrypted payloads are not supported; turn encryption off for this SDK connection" }).optional(),
});

export interface Payload {
  /** What the SDK is given. */
  readonly response: FeatureApiResponse;
  /** Canonical text: equal payloads have equal text, so a poll that changes nothing is not a change. */
  readonly text: string;
  readonly featureCount: number;
}

export type PayloadResult = { readonly ok: true; readonly payload: Payload } | { readonly ok: false; readonly reason: string };

export function parsePayloadText(text: string): PayloadResult {
  if (text.length > MAX_PAYLOAD_BYTES) return { ok: false, reason: `payload is ${text.length} bytes; the limit is ${MAX_PAYLOAD_BYTES}` };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}` };
  }
  return parsePayload(raw);
}

export function parsePayload(raw: unknown): PayloadResult {
  const parsed = payloadSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".") || "top level";
    return { ok: false, reason: `not a GrowthBook payload: ${field}: ${issue?.message ?? "invalid"}` };
  }
  // Structurally checked above; the SDK's own types are looser than zod's output (`any` values).
  const response = parsed.data as FeatureApiResponse;
  return { ok: true, payload: { response, text: JSON.stringify(response), featureCount: Object.keys(parsed.data.features).length } };
}
