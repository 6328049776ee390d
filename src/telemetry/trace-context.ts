/**
 * W3C Trace Context (`traceparent`, https://www.w3.org/TR/trace-context/) for the daemon's call
 * spans: while telemetry is on, each tool call is a span (metered-call.ts), and the requests the
 * pool sends MCP servers for it carry that span's `traceparent` in `_meta`, so a server's own
 * traces join the call that caused them. A span continues the caller's trace when the caller gave a
 * valid `traceparent`, else starts a trace of its own. Ids come from the crypto RNG; no I/O here.
 */

export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** This span's id: 16 lowercase hex digits, not all zero. */
  spanId: string;
  /** Two hex digits; `01` = sampled. */
  flags: string;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A version-00 `traceparent`, or undefined for anything else (all-zero ids included). */
export function parseTraceparent(value: unknown): TraceContext | undefined {
  if (typeof value !== "string") return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, traceId, spanId, flags] = match as unknown as [string, string, string, string];
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, flags };
}

export function formatTraceparent(span: TraceContext): string {
  return `00-${span.traceId}-${span.spanId}-${span.flags}`;
}

/** A new span: a child of `parent` (same trace, its flags), or the root of a new sampled trace. */
export function startSpan(parent?: TraceContext, randomHex: (bytes: number) => string = cryptoHex): TraceContext {
  return { traceId: parent?.traceId ?? nonZeroHex(16, randomHex), spanId: nonZeroHex(8, randomHex), flags: parent?.flags ?? "01" };
}

function nonZeroHex(bytes: number, randomHex: (bytes: number) => string): string {
  for (;;) {
    const hex = randomHex(bytes);
    if (!/^0+$/.test(hex)) return hex;
  }
}

function cryptoHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}
