/**
 * Header values of the 2026-07-28 Streamable HTTP transport (`Mcp-Name`, `Mcp-Param-*`): a value
 * that is not plain visible ASCII travels as `=?base64?…?=` of its UTF-8. One codec for the pool's
 * client (which sends them) and the bridge (which checks them against the body).
 */

/**
 * A header value as its sender meant it: the UTF-8 inside `=?base64?…?=`, or the value itself. A
 * malformed Base64 body is undefined (the caller refuses it), never a guess.
 */
export function decodeHeaderValue(value: string): string | undefined {
  const encoded = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (encoded === null) return /^=\?base64\?/i.test(value) ? undefined : value;
  const body = encoded[1] ?? "";
  if (body.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(body, "base64");
  const text = new TextDecoder("utf-8", { fatal: true });
  try {
    return text.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * As is when it is plain visible ASCII (inner spaces allowed); else `=?base64?…?=` of its UTF-8.
 * A value that opens like the encoded form (in any case, closed or not) is encoded too: the
 * decoder reads every such value as an encoding, and would refuse it or read something else.
 */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x20-\x7e]*$/.test(value) && value === value.trim() && !/^=\?base64\?/i.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}
