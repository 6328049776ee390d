/**
 * Streamable HTTP at 2026-07-28 puts the request's revision, method and name in headers
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) so intermediaries can route without reading
 * the body, and servers refuse a request whose headers disagree with it. The SDK 1.x transport
 * does not set them; this fetch does, from the body it is about to send, for requests that name
 * that revision in `_meta` (2025 requests pass untouched). A `tools/call` also carries the tool's
 * `x-mcp-header` arguments as `Mcp-Param-*` headers (param-headers.ts), looked up by tool name in
 * what the last listing found.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { META_PROTOCOL_VERSION } from "../protocol/mcp-revisions.ts";
import { encodeHeaderValue } from "../protocol/header-value.ts";
import { paramHeaderValues, type ParamHeader } from "./param-headers.ts";

/** A tool's `x-mcp-header` parameters by tool name, as the connection's last listing found them. */
export type ParamHeaderLookup = (tool: string) => readonly ParamHeader[] | undefined;

export function withRevisionHeaders(inner: FetchLike | undefined, paramsOf?: ParamHeaderLookup): FetchLike {
  const send: FetchLike = inner ?? ((url, init) => fetch(url, init));
  return (url, init) => {
    if (init?.method !== "POST" || typeof init.body !== "string") return send(url, init);
    const headers = revisionHeaders(init.body, paramsOf);
    if (!headers) return send(url, init);
    const merged = new Headers(init.headers);
    for (const [key, value] of Object.entries(headers)) merged.set(key, value);
    return send(url, { ...init, headers: merged }).then((response) => refusalAsAnswer(response, init.body as string));
  };
}

/** A refusal's body read at most this far: it is one JSON-RPC error. */
const MAX_REFUSAL_BYTES = 64 * 1024;

/**
 * A 2026-07-28 server refuses a request it will not serve (a revision it does not speak, headers
 * that disagree with the body, a capability the request lacks) with HTTP 400 and a JSON-RPC error
 * for that request's id. The SDK 1.x transport throws such a body away with the status; handed on
 * as a 200, it reaches the client as the answer it is (the code and its `data`, e.g. the revisions
 * the server does speak). A 400 without such a body (a 2025 server wanting a session) is left as is.
 */
async function refusalAsAnswer(response: Response, body: string): Promise<Response> {
  if (response.status !== 400 || !response.headers.get("content-type")?.includes("application/json")) return response;
  const text = await response.text();
  const rebuilt = () => new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  if (text.length > MAX_REFUSAL_BYTES) return rebuilt();
  try {
    const answer = JSON.parse(text) as { id?: unknown; error?: unknown };
    const request = JSON.parse(body) as { id?: unknown };
    if (answer.id === undefined || answer.id === null || answer.id !== request.id || typeof answer.error !== "object" || answer.error === null) return rebuilt();
  } catch {
    return rebuilt();
  }
  return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
}

/** The headers a 2026-07-28 request's body calls for, or undefined for any other body. */
export function revisionHeaders(body: string, paramsOf?: ParamHeaderLookup): Record<string, string> | undefined {
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
  // Header values cannot carry line breaks or non-ASCII: such a name travels Base64-encoded.
  const named: Record<string, string> = typeof name === "string" ? { "mcp-name": encodeHeaderValue(name) } : {};
  const args = params?.arguments;
  const annotated = method === "tools/call" && typeof name === "string" ? paramsOf?.(name) : undefined;
  const mirrored = annotated && typeof args === "object" && args !== null && !Array.isArray(args) ? paramHeaderValues(annotated, args as Record<string, unknown>) : {};
  return { ...mirrored, "mcp-protocol-version": version, "mcp-method": method, ...named };
}
