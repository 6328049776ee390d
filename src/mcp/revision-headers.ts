/**
 * Streamable HTTP at 2026-07-28 puts the request's revision, method and name in headers
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) so intermediaries can route without reading
 * the body, and servers refuse a request whose headers disagree with it. The SDK 1.x transport
 * does not set them; this fetch does, from the body it is about to send, for requests that name
 * that revision in `_meta` (2025 requests pass untouched).
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { META_PROTOCOL_VERSION } from "../protocol/mcp-revisions.ts";

export function withRevisionHeaders(inner: FetchLike | undefined): FetchLike {
  const send: FetchLike = inner ?? ((url, init) => fetch(url, init));
  return (url, init) => {
    if (init?.method !== "POST" || typeof init.body !== "string") return send(url, init);
    const headers = revisionHeaders(init.body);
    if (!headers) return send(url, init);
    const merged = new Headers(init.headers);
    for (const [key, value] of Object.entries(headers)) merged.set(key, value);
    return send(url, { ...init, headers: merged });
  };
}

/** The headers a 2026-07-28 request's body calls for, or undefined for any other body. */
export function revisionHeaders(body: string): Record<string, string> | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  const { method, params } = message as { method?: unknown; params?: Record<string, unknown> };
  const version = (params?._meta as Record<string, unknown> | undefined)?.[META_PROTOCOL_VERSION];
  if (typeof method !== "string" || typeof version !== "string") return undefined;
  const name = method === "tools/call" || method === "prompts/get" ? params?.name : method === "resources/read" ? params?.uri : undefined;
  // Header values cannot carry line breaks or non-ASCII; such a name is left out (the server refuses the request clearly).
  const safe: Record<string, string> = typeof name === "string" && /^[\x20-\x7e]*$/.test(name) ? { "mcp-name": name } : {};
  return { "mcp-protocol-version": version, "mcp-method": method, ...safe };
}
