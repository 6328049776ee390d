/**
 * DNS-rebinding protection for the HTTP bridge. A web page can make a browser send requests to
 * 127.0.0.1 under its own name (evil.example resolving to loopback); the Host and Origin headers
 * still carry that name. So every request must name a loopback host, and a browser Origin, when
 * present, must be a loopback origin too. Anything else is refused with 403 before it reaches MCP.
 * A Host that is not `host[:port]` at all (`localhost/x`, `localhost:99999`, `[::1`) is a 400: the
 * request's URL cannot even be built from it, and reading it would throw deeper in (a 500).
 */

const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export interface GuardVerdict {
  allowed: boolean;
  /** Why a request was refused, for the body and the log. */
  reason?: string;
  /** 400 for a Host that is not a host at all, 403 for one that is not loopback. */
  status?: 400 | 403;
}

/** RFC 9110 `Host = uri-host [ ":" port ]`, narrowed to what a loopback name can be spelt as. */
const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9.-]{1,253})(?::([0-9]{1,5}))?$/;

export function checkLoopbackRequest(headers: Headers): GuardVerdict {
  const host = headers.get("host");
  if (!host) return { allowed: false, status: 400, reason: "missing Host header" };
  const syntax = HOST_SYNTAX.exec(host);
  const hostname = syntax && (syntax[1] === undefined || Number(syntax[1]) <= 65_535) ? hostnameOf(`http://${host}`) : undefined;
  if (hostname === undefined) return { allowed: false, status: 400, reason: `malformed Host header ${JSON.stringify(host.slice(0, 200))}` };
  if (!LOOPBACK_HOSTNAMES.has(hostname)) return { allowed: false, status: 403, reason: `Host ${JSON.stringify(host)} is not a loopback host` };
  const origin = headers.get("origin");
  // Browsers send the literal "null" from sandboxed frames and file pages: not a loopback origin.
  if (origin !== null) {
    const originHost = hostnameOf(origin);
    if (originHost === undefined || !LOOPBACK_HOSTNAMES.has(originHost)) {
      return { allowed: false, status: 403, reason: `Origin ${JSON.stringify(origin.slice(0, 200))} is not a loopback origin` };
    }
  }
  return { allowed: true };
}

/** The refusal (403, or 400 for a malformed Host), shaped as a JSON-RPC error so MCP clients can show it. */
export function forbiddenResponse(reason: string, status: 400 | 403 = 403): Response {
  const message = status === 400 ? `Bad Request: ${reason}` : `Forbidden: ${reason}`;
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }, { status });
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
