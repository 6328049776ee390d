/**
 * DNS-rebinding protection for the HTTP bridge. A web page can make a browser send requests to
 * 127.0.0.1 under its own name (evil.example resolving to loopback); the Host and Origin headers
 * still carry that name. So every request must name a loopback host, and a browser Origin, when
 * present, must be a loopback origin too. Anything else is refused with 403 before it reaches MCP.
 */

const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export interface GuardVerdict {
  allowed: boolean;
  /** Why a request was refused, for the 403 body and the log. */
  reason?: string;
}

export function checkLoopbackRequest(headers: Headers): GuardVerdict {
  const host = headers.get("host");
  if (!host) return { allowed: false, reason: "missing Host header" };
  const hostname = hostnameOf(`http://${host}`);
  if (hostname === undefined || !LOOPBACK_HOSTNAMES.has(hostname)) return { allowed: false, reason: `Host ${JSON.stringify(host)} is not a loopback host` };
  const origin = headers.get("origin");
  // Browsers send the literal "null" from sandboxed frames and file pages: not a loopback origin.
  if (origin !== null) {
    const originHost = hostnameOf(origin);
    if (originHost === undefined || !LOOPBACK_HOSTNAMES.has(originHost)) {
      return { allowed: false, reason: `Origin ${JSON.stringify(origin)} is not a loopback origin` };
    }
  }
  return { allowed: true };
}

/** The 403 answer, shaped as a JSON-RPC error so MCP clients can show it. */
export function forbiddenResponse(reason: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: `Forbidden: ${reason}` } }, { status: 403 });
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
