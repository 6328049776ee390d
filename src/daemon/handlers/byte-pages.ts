/**
 * A page of a list answer that stays inside the line a client reads (MAX_LINE_BYTES): a count alone
 * does not bound it when each item may be large (an MCP tool's schemas, 2 KB descriptions times
 * 5,000 tools). Cursors are the decimal offset of the next item.
 */
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { MAX_LINE_BYTES } from "../../protocol/limits.ts";

/**
 * Bytes of JSON a page holds at most before it ends, half the line (4 MiB): one item always goes in,
 * and none is near the line limit (an MCP tool's kept definition is at most 1M characters of JSON,
 * 3 MiB of UTF-8: mcp/limits.ts MAX_KEPT_DEFINITION_CHARS).
 */
export const MAX_PAGE_BYTES = MAX_LINE_BYTES / 2;

/** The items from `start` on, up to `maxItems` of them and MAX_PAGE_BYTES of JSON (at least one). */
export function pageOf<T>(items: readonly T[], start: number, maxItems = Number.POSITIVE_INFINITY): T[] {
  const page: T[] = [];
  let bytes = 0;
  for (let at = start; at < items.length && page.length < maxItems; at++) {
    bytes += Buffer.byteLength(JSON.stringify(items[at]));
    if (page.length > 0 && bytes > MAX_PAGE_BYTES) break;
    page.push(items[at]!);
  }
  return page;
}

/**
 * A cursor is a decimal offset the daemon handed out: 1 to the list's length − 1, written as
 * String(offset) wrote it. Anything else is refused (MCP: an invalid cursor is -32602), quoting
 * its opening only — "999999" once answered an empty page, "007" and "0" a page the daemon never
 * offered. A cursor the daemon did hand out can fall past the end when the list shrinks between
 * pages: that refusal says to list again from the start.
 */
export function decodeCursor(cursor: string, length: number): number {
  if (/^[1-9]\d{0,8}$/.test(cursor)) {
    const offset = Number(cursor);
    if (offset < length) return offset;
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: cursor "${cursor}" is past the end of the list (${length} item(s) now); list again without a cursor`);
  }
  const shown = cursor.length > 64 ? `${JSON.stringify(cursor.slice(0, 64))}… (${cursor.length} characters)` : JSON.stringify(cursor);
  throw new RpcError(ErrorCode.InvalidParams, `Invalid params: unknown cursor ${shown}: pass a nextCursor this list answered, or none for the first page`);
}
