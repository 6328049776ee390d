/**
 * A fetched body turned into text a model can read: HTML as Markdown (node-html-markdown, no DOM
 * needed), plain text, Markdown, JSON and XML as they are. At most `maxBytes` are read from the
 * network, whatever the server claims in Content-Length; binary bodies are refused, not dumped.
 */
import { requireEmbedded } from "../runtime/embedded-module.ts";

export interface BodyText {
  text: string;
  bytes: Uint8Array;
  /** The body went on past the byte cap and was cut there. */
  truncated: boolean;
  bytesRead: number;
}

export type Readable =
  | { ok: true; text: string; kind: "markdown" | "text" }
  | { ok: false; reason: string };

/** Reads up to `maxBytes` of the body and decodes it with the charset the server named (else UTF-8). */
export async function readBoundedBody(response: Response, maxBytes: number): Promise<BodyText> {
  const chunks: Uint8Array[] = [];
  let bytesRead = 0;
  let truncated = false;
  const reader = response.body?.getReader();
  if (reader) {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const room = maxBytes - bytesRead;
        if (value.length > room) {
          chunks.push(value.subarray(0, room));
          bytesRead += room;
          truncated = true;
          break;
        }
        chunks.push(value);
        bytesRead += value.length;
      }
    } finally {
      if (truncated) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }
  const bytes = Buffer.concat(chunks);
  return { text: decode(bytes, charsetOf(response.headers.get("content-type"))), truncated, bytesRead, bytes };
}

/** Turns a body into readable text by its media type (sniffing when the server named none). */
export function toReadable(contentType: string | null, body: Pick<BodyText, "text" | "bytes">): Readable {
  const media = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (media === "text/html" || media === "application/xhtml+xml") return { ok: true, text: htmlToMarkdown(body.text), kind: "markdown" };
  if (isTextual(media)) return { ok: true, text: body.text, kind: "text" };
  if (media === "" || media === "application/octet-stream") {
    if (body.bytes.includes(0)) return { ok: false, reason: "the response is binary data" };
    if (/^\s*(<!doctype html|<html)/i.test(body.text)) return { ok: true, text: htmlToMarkdown(body.text), kind: "markdown" };
    if (media === "") return { ok: true, text: body.text, kind: "text" };
  }
  return { ok: false, reason: `the response is ${media || "of an unknown type"}, which WebFetch does not turn into text` };
}

function isTextual(media: string): boolean {
  return (
    media.startsWith("text/") ||
    media === "application/json" ||
    media.endsWith("+json") ||
    media === "application/xml" ||
    media.endsWith("+xml") ||
    media === "application/javascript" ||
    media === "application/x-ndjson" ||
    media === "application/yaml" ||
    media === "application/x-yaml"
  );
}

function htmlToMarkdown(html: string): string {
  // Scripts and styles are code, not page text; the converter would otherwise keep their bodies.
  const cleaned = html.replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, "");
  // Loaded on the first HTML page, not at start-up: it is a large module most sessions never need.
  const { NodeHtmlMarkdown } = requireEmbedded<typeof import("./html-markdown-module.ts")>("builtin/html-markdown-module");
  return NodeHtmlMarkdown.translate(cleaned, { keepDataImages: false }).trim();
}

function charsetOf(contentType: string | null): string {
  return /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1]?.toLowerCase() ?? "utf-8";
}

function decode(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset as ConstructorParameters<typeof TextDecoder>[0]).decode(bytes);
  } catch {
    // An unknown charset label: UTF-8 with replacement characters beats refusing the page.
    return new TextDecoder("utf-8").decode(bytes);
  }
}
