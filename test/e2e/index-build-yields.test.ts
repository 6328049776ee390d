// test-plan: one tier — the search index is built the same way in every tier; this picks the binary only.
/**
 * The compiled daemon starts with 40,000 tools in its pool (cached lists of lazy servers, never
 * run) and no search index. Once the pool settles it builds the index in the background, unasked
 * (search-warm.ts); client A's first `toolpool/search`, sent once the daemon says the build has
 * begun, waits for that build rather than starting another; client B's `ping` and `toolpool/status`
 * are answered while the build runs and A waits — the build does not hold the thread that serves
 * every client — and A's answer then finds the tool it asked for, from the whole pool.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startBinaryDaemon } from "../helpers/binary.ts";
import { seedCachedServers, type CachedTool } from "../helpers/cached-catalog.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { waitFor } from "../helpers/wait.ts";

setDefaultTimeout(180_000);

const VERBS = ["create", "list", "delete", "update", "fetch", "archive", "export", "sync", "merge", "scan"];
const OBJECTS = ["ticket", "report", "folder", "invoice", "meeting", "repository", "contact", "playlist", "sensor", "shipment"];
const POOL = 40_000;

function tools(): CachedTool[] {
  const made: CachedTool[] = Array.from({ length: POOL - 1 }, (_, i) => {
    const verb = VERBS[i % VERBS.length]!;
    const object = OBJECTS[Math.floor(i / VERBS.length) % OBJECTS.length]!;
    return {
      name: `${verb}_${object}_${i}`,
      description: `${verb} a ${object} in workspace ${i % 97}, with tag t${i % 1_013}.`,
      inputSchema: { type: "object", properties: { [`${object}_id`]: { type: "string", description: `The ${object} to ${verb}.` } } },
    };
  });
  made.splice(POOL / 2, 0, { name: "reconcile_ledger_quarterly", description: "Reconciles the general ledger against bank statements for a fiscal quarter.", inputSchema: { type: "object" } });
  return made;
}

describe("the index build (in the background, before any search) leaves the daemon serving others", () => {
  test("client B is answered while the index of 40,000 tools builds and client A's search waits for it; A then finds its tool", async () => {
    const dir = mkdtempSync(join(process.env.TMPDIR ?? "/tmp", "index-yields-"));
    const socketDir = tempSocketDir();
    try {
      const stateHome = join(dir, "state");
      const configPath = join(dir, "config.json");
      writeFileSync(configPath, JSON.stringify({ mcpServers: seedCachedServers(stateHome, tools()) }));
      await using daemon = await startBinaryDaemon(join(socketDir, "d.sock"), ["--config", configPath, "--log-level", "debug"], { XDG_STATE_HOME: stateHome });
      const a = await RawClient.open(join(socketDir, "d.sock"));
      const b = await RawClient.open(join(socketDir, "d.sock"));
      try {
        const status = await b.request("toolpool/status");
        expect((status.result as { tools: { mcp: number } }).tools.mcp).toBe(POOL);
        // Nobody has searched: the daemon begins the build by itself once the pool has settled.
        await waitFor(() => daemon.stderr().includes("search index building in the background") && daemon.stderr().includes("search index catching up"), "the daemon to begin building the index", 60_000);

        let searchAnswered = false;
        const search = a.request("toolpool/search", { query: "reconcile the ledger for the quarter", maxResults: 3 }).then((reply) => {
          searchAnswered = true;
          return reply;
        });
        // From here B must not wait for the build, nor for A's search that waits on it.
        const ping = await b.request("ping");
        const pingBeforeSearch = !searchAnswered;
        const during = await b.request("toolpool/status");
        const statusBeforeSearch = !searchAnswered;
        const buildStillRunning = !daemon.stderr().includes("search index current");
        expect({ ping: ping.result, pingBeforeSearch, statusAnswered: during.result !== undefined, statusBeforeSearch, buildStillRunning }).toEqual({
          ping: {},
          pingBeforeSearch: true,
          statusAnswered: true,
          statusBeforeSearch: true,
          buildStillRunning: true,
        });

        const reply = await search;
        const matches = (reply.result as { matches: { name: string }[] }).matches.map((match) => match.name);
        expect(matches[0]).toBe("mcp__big04__reconcile_ledger_quarterly");
        // The build ran in many slices, each giving the thread back.
        await waitFor(() => daemon.stderr().includes("search index current"), "the daemon to say the index is current");
        const current = daemon
          .stderr()
          .split("\n")
          .find((line) => line.includes("search index current"))!;
        expect((JSON.parse(current) as { slices: number }).slices).toBeGreaterThan(1);
        // A's search joined the background build: one build, of the whole pool.
        expect(daemon.stderr().split("search index catching up").length - 1).toBe(1);
      } finally {
        a.close();
        b.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(socketDir, { recursive: true, force: true });
    }
  });
});
