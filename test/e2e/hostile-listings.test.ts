// test-plan: one tier — the MCP face and server listings are in every tier; the attack is the MCP server's.
/**
 * A hostile MCP server whose listings stay inside every per-tool limit yet add up
 * (test/fixtures/mcp/hostile-listing-server.ts), against the compiled daemon over its real socket
 * and through `toolpool mcp`: what a host is sent must stay inside the line a client reads (8 MiB).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ToolpoolClient } from "../../src/client/client.ts";
import { binaryPath, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { pinging } from "../helpers/pinging.ts";
import { RawClient } from "../helpers/raw-client.ts";

setDefaultTimeout(120_000);

const SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "hostile-listing-server.ts");

async function listingDaemon(env: Record<string, string>, entry: Record<string, unknown> = {}) {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "hlisting-")));
  const configPath = join(root, "config.json");
  writeFileSync(configPath, JSON.stringify({ mcpServers: { big: { command: process.execPath, args: [SERVER], env, ...entry } } }));
  const socketPath = join(tempSocketDir(), "l.sock");
  const daemon = await startBinaryDaemon(socketPath, ["--config", configPath], { XDG_STATE_HOME: join(root, "state") }, undefined, root);
  return { daemon, socketPath, root };
}

async function waitForTool(client: RawClient, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const tools = (await client.request("toolpool/tools")).result as { tools: { name: string }[] };
    client.messages.length = 0;
    if (tools.tools.some((tool) => tool.name === name)) return;
    if (Date.now() > deadline) throw new Error(`${name} never appeared`);
    await Bun.sleep(50);
  }
}

describe("a server's listing that adds up (compiled binary)", () => {
  test("30 eager tools of 250K output schemas and 64K of icons, and a 9 MB output schema: `toolpool mcp` starts and lists every tool, page by page", async () => {
    const { daemon, socketPath } = await listingDaemon({ LISTING_TOOLS: "30", LISTING_SCHEMA_CHARS: "10", LISTING_OUTPUT_CHARS: "250000" }, { defer: "never" });
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    await waitForTool(client, "mcp__big__huge_output");
    // The daemon's own pages (what every front door relays): each under the line a client reads.
    const pageBytes: number[] = [];
    for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
      const page = (await client.request("tools/list", cursor === undefined ? {} : { cursor })) as { result: { nextCursor?: string } };
      pageBytes.push(Buffer.byteLength(JSON.stringify(page)));
      client.messages.length = 0;
      cursor = page.result.nextCursor;
    }
    expect({ paged: pageBytes.length > 1, under: pageBytes.every((bytes) => bytes < 8 * 1024 * 1024) }).toEqual({ paged: true, under: true });
    const host = new Client({ name: "listing-host", version: "1" });
    await host.connect(new StdioClientTransport({ command: binaryPath(), args: ["mcp", "--socket", socketPath], env: { ...process.env } as Record<string, string>, stderr: "pipe" }));
    try {
      const pages: { names: string[]; outputs: Record<string, number> }[] = [];
      let cursor: string | undefined;
      do {
        const page = await host.listTools(cursor === undefined ? {} : { cursor });
        const big = page.tools.filter((tool) => tool.name.startsWith("mcp__big__"));
        pages.push({ names: big.map((tool) => tool.name), outputs: Object.fromEntries(big.map((tool) => [tool.name, JSON.stringify(tool.outputSchema ?? null).length])) });
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      const names = pages.flatMap((page) => page.names).sort();
      const outputs = Object.assign({}, ...pages.map((page) => page.outputs)) as Record<string, number>;
      expect({ names, hugeOutput: outputs.mcp__big__huge_output, bigOutput: outputs.mcp__big__big_0! > 250_000 }).toEqual({
        names: ["mcp__big__huge_output", ...Array.from({ length: 30 }, (_, n) => `mcp__big__big_${n}`)].sort(),
        // Past the input schema's limit, an output schema is left out (the tool stays).
        hugeOutput: "null".length,
        bigOutput: true,
      });
    } finally {
      await host.close();
    }
  });

  test("60 tools of 250K schemas whose server asks for them eager: `toolpool mcp` starts, the excess waits behind ToolSearch and status names it", async () => {
    const { daemon, socketPath } = await listingDaemon({ LISTING_TOOLS: "60", LISTING_ALWAYS_LOAD: "1", LISTING_HUGE_OUTPUT_CHARS: "0" });
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    await waitForTool(client, "mcp__big__big_59");
    const host = new Client({ name: "eager-host", version: "1" });
    await host.connect(new StdioClientTransport({ command: binaryPath(), args: ["mcp", "--socket", socketPath], env: { ...process.env } as Record<string, string>, stderr: "pipe" }));
    try {
      const listed = (await host.listTools()).tools.map((tool) => tool.name);
      const status = (await client.request("toolpool/status")).result as { guard?: { deferred: string[] } };
      expect({ toolSearch: listed.includes("ToolSearch"), eagerBig: listed.filter((name) => name.startsWith("mcp__big__")).length, guarded: status.guard?.deferred.length }).toEqual({
        toolSearch: true,
        // 2 MiB of definitions hold 8 of them (each ~250K characters of schema).
        eagerBig: 8,
        guarded: 52,
      });
    } finally {
      await host.close();
    }
  });

  test("16 tools of 250K-character CJK schemas (12 MB of UTF-8): a standard session's request defers and stays inside the line, not -32603", async () => {
    // Attack: the array guards counted characters; 4 Mi characters of three-byte text went out whole, and the
    // daemon replaced every assemble of the session with "-32603 The answer was 12… bytes, over the … line limit".
    const env = { LISTING_TOOLS: "16", LISTING_SCHEMA_FILL: "界", LISTING_OUTPUT_CHARS: "0", LISTING_HUGE_OUTPUT_CHARS: "0" };
    const { daemon, socketPath } = await listingDaemon(env);
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    await waitForTool(client, "mcp__big__big_15");
    await client.request("toolpool/session", { delivery: "standard" });
    const answer = (await client.request("toolpool/assemble", { messages: [] })) as { result?: { delivery: { delivery: string; reason: string } }; error?: { message: string } };
    expect({ error: answer.error?.message.slice(0, 20), delivery: answer.result?.delivery }).toEqual({ error: undefined, delivery: { delivery: "proxy", reason: "tool_limit" } });
  });

  test("1,000 tools of 250K schemas in pages of 200: the listing keeps 64 MiB of definitions and asks for no more pages", async () => {
    // Attack: each tool inside every per-tool limit, the daemon kept all 250 MB (10.6 s to list, RSS peak 1.26 GB, another
    // client's ping held 4.7 s); 5,000 of them would be 1.25 GB. Now 268 tools (2.0 s, peak 0.67 GB, ping 1.2 s).
    const env = { LISTING_TOOLS: "1000", LISTING_PAGE_TOOLS: "200", LISTING_OUTPUT_CHARS: "0", LISTING_HUGE_OUTPUT_CHARS: "0" };
    const { daemon, socketPath } = await listingDaemon(env);
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    const select = async (name: string) => ((await client.request("toolpool/search", { query: `select:${name}` })).result as { found?: string[] }).found ?? [];
    const deadline = Date.now() + 60_000;
    while ((await select("mcp__big__big_267")).length === 0) {
      if (Date.now() > deadline) throw new Error("mcp__big__big_267 never appeared");
      await Bun.sleep(100);
    }
    expect(await select("mcp__big__big_268,mcp__big__big_399,mcp__big__big_999")).toEqual([]);
  });

  test("5,000 tools of 2,000-character descriptions: toolpool/tools answers in pages under the line a client reads, and the client library reads them all", async () => {
    const { daemon, socketPath } = await listingDaemon({ LISTING_TOOLS: "5000", LISTING_SCHEMA_CHARS: "10", LISTING_OUTPUT_CHARS: "0", LISTING_HUGE_OUTPUT_CHARS: "0", LISTING_DESCRIPTION_CHARS: "2000" });
    await using _daemon = daemon;
    using raw = await RawClient.open(socketPath);
    const deadline = Date.now() + 60_000;
    const admin = await ToolpoolClient.connect(socketPath);
    try {
      let tools = (await admin.tools()).tools;
      while (!tools.some((tool) => tool.name === "mcp__big__big_4999") && Date.now() < deadline) {
        await Bun.sleep(100);
        tools = (await admin.tools()).tools;
      }
      const first = (await raw.request("toolpool/tools")) as { result: { tools: unknown[]; nextCursor?: string } };
      // One answer was 11 MB: the connection's client failed every request with "daemon sent a line over the size limit".
      // (5,000: the per-server limit keeps the first 5,000 of the server's 5,001 tools.)
      expect({ big: tools.filter((tool) => tool.name.startsWith("mcp__big__")).length, paged: first.result.nextCursor !== undefined, firstUnder: Buffer.byteLength(JSON.stringify(first)) < 8 * 1024 * 1024 }).toEqual({ big: 5000, paged: true, firstUnder: true });
    } finally {
      admin.close();
    }
  });

  test("5,000 tools in 16 described groups each, re-listed on a flood of list_changed: the catalog holds each text once, every ping answered", async () => {
    const listings = join(realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "listings-"))), "listings");
    const env = { LISTING_TOOLS: "5000", LISTING_SCHEMA_CHARS: "0", LISTING_HUGE_OUTPUT_CHARS: "0", LISTING_GROUPS: "64", LISTING_CHANGED_MS: "5", LISTING_LISTINGS_FILE: listings };
    const { daemon, socketPath, root } = await listingDaemon(env);
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    await waitForTool(client, "mcp__big__big_4999");
    using pinger = await RawClient.open(socketPath);
    const pings = pinging(pinger);
    // Re-listings come one a second once the first three are spent (relist-throttle.ts): watch eight.
    const listed = () => (existsSync(listings) ? readFileSync(listings, "utf8").split("\n").length - 1 : 0);
    while (listed() < 8) await Bun.sleep(50);
    const slowestPingMs = await pings.stop();
    const catalog = join(root, "state", "toolpool", "catalog.sqlite");
    // The database and its write-ahead log (which holds the newest writes until a checkpoint).
    const catalogBytes = [catalog, `${catalog}-wal`].reduce((sum, path) => sum + (existsSync(path) ? statSync(path).size : 0), 0);
    // Each text rode on all ~1,250 members: a 41 MB catalog, and each re-listing compared, checked
    // and held the copies on the daemon's thread (pings held 0.3-1.2 s every second, forever, against
    // ~0.1-0.26 s since: reported, not asserted, as load moves it).
    console.error(`catalog ${catalogBytes} bytes, slowest ping ${Math.round(slowestPingMs)} ms`);
    expect({ catalogUnder8MB: catalogBytes < 8 * 1024 * 1024, pingsAnswered: Number.isFinite(slowestPingMs) }).toEqual({ catalogUnder8MB: true, pingsAnswered: true });
  });
});
