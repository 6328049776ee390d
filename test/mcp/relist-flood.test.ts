/**
 * A server that announces a changed tool list 1,000 times a second and renames its 200 tools on
 * every listing: re-listing is throttled (a burst, then one a second, every notice in between
 * folded in) and the catalog cache keeps a bounded number of rows for it.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_ABSENT_TOOLS_PER_SERVER, RELIST_BURST } from "../../src/mcp/limits.ts";
import { fixtureSpec, tempDir, testPool, waitFor } from "./helpers.ts";

const FLOOD_SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "flood-server.ts");
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean).length : 0);

describe("a server flooding tools/list_changed", () => {
  test("is re-listed about once a second, and its cache rows stay bounded", async () => {
    const dir = tempDir("flood-");
    const listings = join(dir, "listings");
    const notices = join(dir, "notices");
    const cachePath = join(dir, "catalog.sqlite");
    const spec = fixtureSpec("flood", { FLOOD_LISTINGS_FILE: listings, FLOOD_NOTICES_FILE: notices }, { args: [FLOOD_SERVER] });
    await using pool = testPool([spec], { cachePath });
    const started = Date.now();
    pool.start();
    await waitFor(() => pool.server("flood")?.state === "connected", "the flood server to connect");
    // About two seconds of flooding, counted by the server itself: 2,000 notices.
    await waitFor(() => lines(notices) >= 20, "2,000 notices", 20_000);
    const elapsedSeconds = (Date.now() - started) / 1000;
    // One listing at connect, a burst, then one a second (+1 for a listing under way at the count).
    expect(lines(listings)).toBeLessThanOrEqual(1 + RELIST_BURST + Math.ceil(elapsedSeconds) + 1);
    const db = new Database(cachePath, { readonly: true });
    try {
      const rows = db.query<{ count: number }, []>("SELECT COUNT(*) AS count FROM tools WHERE server = 'flood'").get()!.count;
      expect(rows).toBeLessThanOrEqual(200 + MAX_ABSENT_TOOLS_PER_SERVER);
    } finally {
      db.close();
    }
    // The pool still serves the server's latest list.
    expect(pool.tools().length).toBe(200);
  }, 30_000);
});
