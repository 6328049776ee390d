/**
 * WebFetch: one URL read as text (HTML → Markdown). Redirects are followed by hand so that every
 * hop passes the address check of `web-fetch-guard.ts`, and connects to an address that check
 * passed; a redirect to a loopback or private address is refused exactly like a first URL pointing there. Bytes read, output size and total time are
 * all bounded. Built by `createWebFetchTool(options)` with the operator's `webFetch` config.
 */
import { z } from "zod";
import { buildTool, NO_PATHS } from "../tool/build-tool.ts";
import { errorResult, textResult } from "../tool/result.ts";
import type { Tool } from "../tool/tool.ts";
import { readBoundedBody, toReadable } from "./web-content.ts";
import { checkDestination, pinnedRequest, systemLookup, type HostLookup, type ResolvedAddress, type WebFetchPolicy } from "./web-fetch-guard.ts";
import description from "./web-fetch.txt" with { type: "text" };

export const DEFAULT_WEB_FETCH_TIMEOUT_MS = 30_000;
/** Bytes read from the network: a page, not a download. */
export const DEFAULT_WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;
/** Characters of text returned: a page's worth of context, not a book's. */
export const DEFAULT_WEB_FETCH_MAX_OUTPUT_CHARS = 80_000;
export const DEFAULT_WEB_FETCH_MAX_REDIRECTS = 10;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Checked addresses of one host tried in turn when a connection fails. */
const MAX_ADDRESSES_TRIED = 4;

export interface WebFetchOptions extends Partial<WebFetchPolicy> {
  fetch?: (url: URL, init: BunFetchRequestInit) => Promise<Response>;
  lookup?: HostLookup;
  timeoutMs?: number;
  maxBytes?: number;
  maxOutputChars?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Where HTTP(S)_PROXY is looked up; the daemon's environment. */
  env?: NodeJS.ProcessEnv;
}

const inputSchema = () =>
  z.strictObject({
    url: z.string().min(1).max(8192).describe("The full http or https URL to fetch."),
    prompt: z.string().max(2000).optional().describe("What you want to find in the page; shown above the content."),
  });

export function createWebFetchTool(options: WebFetchOptions = {}): Tool {
  const policy: WebFetchPolicy = {
    allowPrivateAddresses: options.allowPrivateAddresses ?? false,
    allowHosts: options.allowHosts ?? [],
  };
  const fetchImpl = options.fetch ?? ((url: URL, init: BunFetchRequestInit) => fetch(url, init));
  const resolve = options.lookup ?? systemLookup;
  const proxyEnv = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEB_FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_WEB_FETCH_MAX_BYTES;
  const maxOutputChars = options.maxOutputChars ?? DEFAULT_WEB_FETCH_MAX_OUTPUT_CHARS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_WEB_FETCH_MAX_REDIRECTS;
  const headers = { "user-agent": options.userAgent ?? "toolpool-webfetch", accept: "text/html, text/markdown, text/plain, application/json, */*;q=0.5" };

  /** GET `url` at the first checked address that answers, or by its own name when there are none to pin. */
  async function get(url: URL, addresses: readonly ResolvedAddress[], signal: AbortSignal): Promise<Response> {
    const init = { method: "GET", redirect: "manual", signal } as const;
    // Through a proxy the proxy connects, by name; an address in the URL would only defeat NO_PROXY.
    if (addresses.length === 0 || proxyConfigured(url, proxyEnv)) return fetchImpl(url, { ...init, headers });
    let failure: unknown;
    for (const address of addresses.slice(0, MAX_ADDRESSES_TRIED)) {
      const pinned = pinnedRequest(url, address);
      try {
        return await fetchImpl(pinned.url, { ...init, headers: { ...headers, host: pinned.host }, ...(pinned.tls && { tls: pinned.tls }) });
      } catch (error) {
        if (signal.aborted) throw error;
        failure = error;
      }
    }
    throw failure;
  }

  return buildTool({
    name: "WebFetch",
    description,
    searchHint: "download web page url http read website markdown",
    inputSchema,
    access: () => NO_PATHS,
    shouldDefer: true,
    // The deadline below is ours; the pipeline's only has to outlast it.
    timeoutMs: timeoutMs + 5_000,
    maxResultSizeChars: maxOutputChars + 2_000,
    isReadOnly: true,
    isConcurrencySafe: () => true,
    openWorld: true,
    permissionSubject: ({ url }) => {
      const parsed = URL.parse(url);
      return parsed ? `domain:${parsed.hostname}` : undefined;
    },
    async call({ url, prompt }, context) {
      let current = URL.parse(url);
      if (!current) return errorResult(`${JSON.stringify(url)} is not a valid URL; give a full URL such as https://example.com/page.`);
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
      const hops: string[] = [];
      try {
        for (;;) {
          const destination = await checkDestination(current, policy, resolve);
          const refused = destination.refused;
          if (refused !== undefined) return errorResult(hops.length === 0 ? refused : `${refused} (reached by a redirect from ${hops[0]})`);
          const response = await get(current, destination.addresses, signal);
          const location = response.headers.get("location");
          if (!REDIRECT_STATUSES.has(response.status) || location === null) {
            return await render(response, current, hops, prompt, { maxBytes, maxOutputChars });
          }
          await response.body?.cancel().catch(() => {});
          const next = URL.parse(location, current.href);
          if (!next) return errorResult(`${current.href} redirected to an invalid URL: ${location}`);
          hops.push(current.href);
          if (hops.length > maxRedirects) return errorResult(`Stopped after ${maxRedirects} redirects (last one to ${next.href}).`);
          current = next;
        }
      } catch (error) {
        if (signal.aborted && !context.signal.aborted) return errorResult(`Fetching ${current.href} took longer than ${timeoutMs / 1000} s and was stopped.`);
        if (context.signal.aborted) throw error;
        return errorResult(`Could not fetch ${current.href}: ${(error as Error).message}`);
      }
    },
  });
}

async function render(
  response: Response,
  url: URL,
  hops: readonly string[],
  prompt: string | undefined,
  limits: { maxBytes: number; maxOutputChars: number },
) {
  const contentType = response.headers.get("content-type");
  const body = await readBoundedBody(response, limits.maxBytes);
  const readable = toReadable(contentType, body);
  const header = [`URL: ${url.href}`];
  if (hops.length > 0) header.push(`Redirected from: ${hops[0]}`);
  header.push(`Status: ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
  if (contentType) header.push(`Content-Type: ${contentType}`);
  if (!readable.ok) return errorResult(`${header.join("\n")}\n\nNot shown: ${readable.reason}.`);
  if (prompt) header.push(`Looking for: ${prompt}`);
  let text = readable.text;
  const notes: string[] = [];
  if (body.truncated) notes.push(`[The response was cut after ${limits.maxBytes.toLocaleString("en-US")} bytes.]`);
  if (text.length > limits.maxOutputChars) {
    notes.push(`[Content cut: showing ${limits.maxOutputChars.toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")} characters.]`);
    text = text.slice(0, limits.maxOutputChars);
  }
  const output = [header.join("\n"), "", text === "" ? "(the page has no text)" : text, ...notes].join("\n");
  if (!response.ok) return errorResult(`The server answered ${response.status}.\n${output}`);
  return textResult(output, { url: url.href, status: response.status, contentType: contentType ?? "", truncated: body.truncated || notes.length > 0 });
}

/** Whether fetch would send a request for `url` through a proxy from the environment (any NO_PROXY aside). */
function proxyConfigured(url: URL, env: NodeJS.ProcessEnv): boolean {
  const names = url.protocol === "https:" ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy", "HTTP_PROXY"];
  return names.some((name) => Boolean(env[name]));
}
