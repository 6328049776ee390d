/**
 * Schema stability (SPEC §6): a tool's serialized bytes are frozen for the life of a session. The
 * cache maps a tool name to the JSON of its base definition (wire-format.ts) as first sent. When the
 * pool later carries a different definition — an MCP server updated a description, a flag changed a
 * schema — the session keeps the old bytes (the prompt cache survives), new sessions get the new
 * ones, and the model is told the tool changed through the delta announcement.
 *
 * The cache is an optimization, never the truth: without it (a restarted daemon) the current pool's
 * definitions are used, and the same transcript with the same pool still gives the same bytes.
 */
import type { WireFormat } from "../deferral/delivery.ts";
import { baseWireTool, isOpenAIWireTool, type WireFacts, type WireTool } from "./wire-format.ts";

/** name → serialized base definition, per session. */
export type SerializedToolCache = Map<string, string>;

export interface PinnedDefinition {
  base: WireTool;
  /** The bytes that go out (the cached ones when the cache had the tool). */
  bytes: string;
  /**
   * Set when the pool's current definition differs from the pinned one: a short fingerprint of
   * the current definition, so an announcement of the change can be made once per change.
   */
  changedTo?: string;
}

export function pinDefinition(tool: WireFacts, format: WireFormat, cache?: SerializedToolCache): PinnedDefinition {
  const fresh = baseWireTool(tool, format);
  const freshBytes = JSON.stringify(fresh);
  if (cache === undefined) return { base: fresh, bytes: freshBytes };
  const cachedBytes = cache.get(tool.name);
  const cached = cachedBytes === undefined ? undefined : readCached(cachedBytes, format);
  if (cachedBytes === undefined || cached === undefined) {
    cache.set(tool.name, freshBytes);
    return { base: fresh, bytes: freshBytes };
  }
  if (cachedBytes === freshBytes) return { base: cached, bytes: cachedBytes };
  return { base: cached, bytes: cachedBytes, changedTo: definitionFingerprint(freshBytes) };
}

/** Short, stable fingerprint of a serialized definition (12 hex digits of SHA-256). */
export function definitionFingerprint(bytes: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(bytes);
  return hasher.digest("hex").slice(0, 12);
}

/**
 * A cached entry is our own output, but a session may have switched format since it was written;
 * an entry in the other format is treated as absent (and overwritten) rather than sent.
 */
function readCached(bytes: string, format: WireFormat): WireTool | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const wire = parsed as WireTool;
  return isOpenAIWireTool(wire) === (format === "openai") ? wire : undefined;
}
