#!/usr/bin/env bun
/**
 * What the first search after a large pool change costs everyone else. Prints JSON:
 *
 *  - socket (per size): the compiled daemon starts with `size` tools already in its pool (the
 *    catalog cache of lazy servers, test/helpers/cached-catalog.ts) and no search index. Client B
 *    pings over the Unix socket back to back; client A sends the first `toolpool/search`, which
 *    builds the index (or joins the build the daemon began by itself once the pool settled,
 *    search-warm.ts; with `--settle` long enough it finds the index built). Reported: A's search time and B's ping latencies while A's search was in
 *    flight (each ping sent before A's answer came, max, p50, p99, count), beside B's pings before
 *    it (the idle baseline). Then, right after A's answer (the daemon sweeps the index's impacts
 *    then, in slices: core/impact-sweep.ts), A asks `--follow-ups` (40) more dev queries one after
 *    another while B keeps pinging for at least `--after-ms` (1000): A's follow-up search times and
 *    B's pings in that stretch (max, p50, p99, count).
 *  - relist (in process, per size): the index current over `size` tools in servers of 5,000; one
 *    server re-lists with 3 more tools (mcp-pool.ts makes new Tool objects for the whole server).
 *    Reported: tools indexed again and the time the next search waited; and what the change costs
 *    on the serving thread before any search (median of 5): the pool's assembly (`assemblePool`, as
 *    live-pool.ts calls it, with SortedRuns) and `SearchSync.sync` (recording the changes; with the pool's lookup, as
 *    the daemon calls it, and without), each in ms. And the impact sweep after the build and after
 *    the relist's catch-up: its slices, wall time, and the longest the event loop waited meanwhile.
 *  - rankings (`--rankings`): the dev queries asked of an index built by SearchSync in slices and
 *    of one built by adding every tool synchronously; the number of queries whose top 10 differ.
 *
 * Usage: bun bench/index-stall.ts [--binary dist/toolpool-pro] [--sizes 7108,100000] [--rankings]
 *        [--no-socket] [--no-relist] [--no-pings (the first search alone: its time without B's load)]
 *        [--follow-ups N] [--after-ms MS] [--log-debug (the daemon logs at debug level; its impact
 *        sweep's event, `impactSweep`: ms, slices, outcome, is reported)]
 *        [--settle MS (A's first search comes MS after the daemon listens, not at once: the time a
 *        daemon started at login has before its first search, in which it builds the index in the
 *        background, search-warm.ts)]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../src/config/load.ts";
import { eagerPolicyOf } from "../src/core/eager-config.ts";
import { SearchSync } from "../src/core/search-sync.ts";
import { SortedRuns } from "../src/core/sorted-runs.ts";
import { assemblePool } from "../src/pool/assemble.ts";
import { searchDocument } from "../src/core/search-document.ts";
import { ToolSearchIndex } from "../src/search/tool-search-index.ts";
import type { Tool } from "../src/tool/tool.ts";
import { cachedToolName, seedCachedServers } from "../test/helpers/cached-catalog.ts";
import { parseArgs } from "./lib/args.ts";
import { defaultEvalDir, readJsonl, repoRoot, type EvalQuery, type EvalTool } from "./lib/eval-data.ts";
import { NdjsonClient } from "./lib/ndjson-client.ts";
import { replicatePool } from "./lib/pool-replication.ts";
import { percentile, round } from "./lib/stats.ts";

const args = parseArgs(Bun.argv.slice(2), { binary: "value", sizes: "value", rankings: "flag", "no-socket": "flag", "no-relist": "flag", "no-pings": "flag", settle: "value", "follow-ups": "value", "after-ms": "value", "log-debug": "flag" });
const followUps = Number(args.get("follow-ups") ?? 40);
const afterMs = Number(args.get("after-ms") ?? 1000);
for (const [name, value] of [["follow-ups", followUps], ["after-ms", afterMs]] as const) {
  if (!(Number.isInteger(value) && value >= 0 && value <= 600_000)) throw new Error(`--${name}: ${value} is not a whole number in 0..600000`);
}
const settleMs = Number(args.get("settle") ?? 0);
if (!(Number.isFinite(settleMs) && settleMs >= 0 && settleMs <= 600_000)) throw new Error(`--settle: ${args.get("settle")} is not a number of milliseconds in 0..600000`);
const binary = args.get("binary") ?? join(repoRoot(), "dist", "toolpool-pro");
const evalTools = readJsonl<EvalTool>(join(defaultEvalDir(), "tools.jsonl"));
const sizes = (args.get("sizes") ?? `${evalTools.length},100000`).split(",").map(Number);
for (const size of sizes) if (!(Number.isInteger(size) && size > 0 && size <= 200_000)) throw new Error(`--sizes: ${size} is not a pool size in 1..200000`);
const SERVER_SIZE = 5_000;

function poolOf(size: number): { name: string; description: string; inputSchema: unknown }[] {
  return replicatePool(evalTools, size).map((tool, i) => ({ name: cachedToolName(tool.name, i), description: tool.description, inputSchema: tool.input_schema ?? { type: "object" } }));
}

async function socketRun(size: number): Promise<Record<string, unknown>> {
  if (!(await Bun.file(binary).exists())) throw new Error(`${binary} is missing: run \`bun run build.ts --tier pro\` first`);
  const dir = mkdtempSync("/tmp/tpstall-");
  const env = { ...process.env, HOME: dir, XDG_STATE_HOME: join(dir, "state"), XDG_CONFIG_HOME: join(dir, "config"), XDG_RUNTIME_DIR: dir };
  const mcpServers = seedCachedServers(env.XDG_STATE_HOME, poolOf(size));
  const configPath = join(dir, "config.json");
  writeFileSync(configPath, JSON.stringify({ mcpServers }));
  const socketPath = join(dir, "d.sock");
  const child = Bun.spawn([binary, "serve", "--socket", socketPath, "--config", configPath, ...(args.has("log-debug") ? ["--log-level", "debug"] : [])], { env, stdout: "ignore", stderr: "pipe" });
  let stderr = "";
  void (async () => {
    for await (const chunk of child.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  try {
    for (const deadline = Date.now() + 60_000; !stderr.includes('"listening"'); await Bun.sleep(5)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`daemon did not start: ${stderr.slice(-2000)}`);
    }
    const [a, b] = await Promise.all([NdjsonClient.open(socketPath), NdjsonClient.open(socketPath)]);
    const status = (await b.request("toolpool/status")).result as { tools?: { total?: number } };
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) idle.push(await timed(() => b.request("ping")));
    if (settleMs > 0) await Bun.sleep(settleMs);
    let answered = false;
    const during: number[] = [];
    const started = performance.now();
    const search = a.request("toolpool/search", { query: "send an email with an attachment to a colleague", maxResults: 5 }).then((reply) => {
      answered = true;
      return reply;
    });
    // Every ping sent while A's search is unanswered counts, however late its own answer comes.
    while (!answered && !args.has("no-pings")) during.push(await timed(() => b.request("ping")));
    const reply = await search;
    const searchMs = performance.now() - started;
    // Right after the first answer: more searches from A, B pinging throughout and for afterMs at least.
    const followUpTexts = [...new Set(readJsonl<EvalQuery>(join(defaultEvalDir(), "queries.dev.jsonl")).map((query) => query.query))].slice(0, followUps);
    const followUpMs: number[] = [];
    const after: number[] = [];
    let followedUp = false;
    const answeredAt = performance.now();
    const asking = (async () => {
      for (const query of followUpTexts) followUpMs.push(await timed(() => a.request("toolpool/search", { query, maxResults: 5 })));
      followedUp = true;
    })();
    while (!args.has("no-pings") && (!followedUp || performance.now() - answeredAt < afterMs)) after.push(await timed(() => b.request("ping")));
    await asking;
    const memory = daemonMemory(child.pid);
    const matches = ((reply.result as { matches?: unknown[] } | undefined)?.matches ?? []).length;
    a.close();
    b.close();
    const sweepLine = stderr.split("\n").find((line) => line.includes("search impacts worked out ahead"));
    return {
      size,
      settleMs,
      poolTools: status.tools?.total ?? null,
      firstSearchMs: round(searchMs, 1),
      firstSearchMatches: matches,
      pingsDuringSearch: during.length,
      pingDuringMaxMs: round(Math.max(0, ...during), 2),
      pingDuringP50Ms: round(percentile(during, 50), 3),
      pingDuringP99Ms: round(percentile(during, 99), 2),
      followUpSearches: followUpMs.length,
      followUpSearchP50Ms: round(percentile(followUpMs, 50), 3),
      followUpSearchMaxMs: round(Math.max(0, ...followUpMs), 2),
      followUpSearchFirst8Ms: followUpMs.slice(0, 8).map((ms) => round(ms, 2)),
      pingsAfter: after.length,
      pingAfterMaxMs: round(Math.max(0, ...after), 2),
      pingAfterP50Ms: round(percentile(after, 50), 3),
      pingAfterP99Ms: round(percentile(after, 99), 2),
      pingIdleP50Ms: round(percentile(idle, 50), 3),
      pingIdleMaxMs: round(Math.max(...idle), 2),
      ...memory,
      ...(sweepLine !== undefined && { impactSweep: ((event) => ({ ms: event.ms, slices: event.slices, outcome: event.outcome }))(JSON.parse(sweepLine.slice(sweepLine.indexOf("{"))) as Record<string, unknown>) }),
    };
  } finally {
    child.kill("SIGKILL");
    await child.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The daemon's resident set now and at its peak (Linux /proc; absent elsewhere). */
function daemonMemory(pid: number): { daemonRssMiB?: number; daemonPeakRssMiB?: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { daemonRssMiB: Math.round(kib("VmRSS") / 1024), daemonPeakRssMiB: Math.round(kib("VmHWM") / 1024) };
  } catch {
    return {};
  }
}

async function timed(request: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await request();
  return performance.now() - started;
}

/** What SearchSync reads of a pool tool, as the MCP pool makes it (a new object per listing). */
function poolTool(tool: { name: string; description: string; inputSchema: unknown }, server: number): Tool {
  const serverName = `big${server}`;
  return { name: `mcp__${serverName}__${tool.name}`, description: tool.description, inputJSONSchema: tool.inputSchema, aliases: [], isMcp: true, mcpInfo: { server: serverName, tool: tool.name } } as unknown as Tool;
}

async function caughtUp(sync: SearchSync): Promise<void> {
  // A base without ready() (the synchronous SearchSync) catches up on first read.
  const ready = (sync as { ready?: () => Promise<void> }).ready;
  if (ready) await ready.call(sync);
  else void sync.index;
}

/**
 * The impact sweep SearchSync starts once a catch-up ends (core/impact-sweep.ts), watched from
 * the event loop: its slices, its wall time, and the longest gap between two turns of the loop
 * while it ran (what a request arriving then could wait).
 */
async function sweepWatched(sync: SearchSync): Promise<{ slices: number; ms: number; maxGapMs: number; outcome: string }> {
  const before = { ...sync.stats };
  const ended = () => sync.stats.impactSweeps + sync.stats.impactAbandoned > before.impactSweeps + before.impactAbandoned;
  const started = performance.now();
  let last = started;
  let maxGap = 0;
  for (let turns = 0; !ended() && turns < 1_000_000; turns++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }
  const outcome = sync.stats.impactSweeps > before.impactSweeps ? "done" : ended() ? "abandoned" : "not ended";
  return { slices: sync.stats.impactSlices - before.impactSlices, ms: round(performance.now() - started, 1), maxGapMs: round(maxGap, 2), outcome };
}

async function relistRun(size: number): Promise<Record<string, unknown>> {
  const raw = poolOf(size);
  const listing = (extra: number) => [...raw, ...Array.from({ length: extra }, (_, i) => ({ name: `added_${i}`, description: `A tool added on relisting, number ${i}.`, inputSchema: { type: "object" } }))];
  const build = (tools: typeof raw) => tools.map((tool, i) => poolTool(tool, i < size ? Math.floor(i / SERVER_SIZE) : 0));
  const eager = eagerPolicyOf(parseConfig({}, "bench"));
  // As live-pool.ts does it: the servers' lists in name order (SortedRuns: a list that did not
  // change is not sorted again), the pool assembled, then synced with the pool's own lookup.
  const sorter = new SortedRuns();
  const assemble = (runs: Tool[][]) => assemblePool({ builtins: [], mcpTools: sorter.of(runs), eager });
  const syncPool = (target: SearchSync, pool: ReturnType<typeof assemble>) => target.sync(pool.tools, (name) => pool.get(name)?.name === name);
  const sync = new SearchSync();
  const first = build(raw);
  const firstRuns = Array.from({ length: Math.ceil(size / SERVER_SIZE) }, (_, k) => first.slice(k * SERVER_SIZE, (k + 1) * SERVER_SIZE));
  syncPool(sync, assemble(firstRuns));
  await caughtUp(sync);
  const sweepAfterBuild = await sweepWatched(sync);
  const index = sync.index;
  let adds = 0;
  const add = index.add.bind(index);
  index.add = (doc) => {
    adds++;
    add(doc);
  };
  // Server 0 re-lists with 3 more: its list is a new array of new objects (mcp-pool.ts builds it afresh), the others' are kept.
  const relist = (): Tool[][] => {
    const fresh = build(listing(3));
    return [[...fresh.slice(0, Math.min(SERVER_SIZE, size)), ...fresh.slice(size)], ...firstRuns.slice(1)];
  };
  const assembleMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const runs = relist();
    assembleMs.push(await timed(async () => void assemble(runs)));
  }
  const relisted = relist();
  const relistedPool = assemble(relisted);
  const syncStarted = performance.now();
  syncPool(sync, relistedPool);
  const syncMs = performance.now() - syncStarted;
  const started = performance.now();
  await caughtUp(sync);
  const waitedMs = performance.now() - started;
  const sweepAfterRelist = await sweepWatched(sync);
  // The same change again, each time a new listing of server 0 (sync's cost when only it changed),
  // with the pool's lookup (the daemon's way) and without it (a set of every name per change).
  const syncAgainMs: number[] = [];
  const syncNoLookupMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const again = assemble(relist());
    syncAgainMs.push(await timed(async () => void syncPool(sync, again)));
    await caughtUp(sync);
    const plain = assemble(relist());
    syncNoLookupMs.push(await timed(async () => void sync.sync(plain.tools)));
    await caughtUp(sync);
  }
  return {
    size,
    relistedServerTools: Math.min(size, SERVER_SIZE) + 3,
    toolsIndexedAgain: adds,
    sameIndex: sync.index === index,
    nextSearchWaitedMs: round(waitedMs, 1),
    sweepAfterBuild,
    sweepAfterRelist,
    assemblePoolMs: round(percentile(assembleMs, 50), 1),
    syncFirstMs: round(syncMs, 1),
    syncMs: round(percentile(syncAgainMs, 50), 1),
    syncWithoutLookupMs: round(percentile(syncNoLookupMs, 50), 1),
  };
}

async function rankingsRun(): Promise<Record<string, unknown>> {
  const queries = readJsonl<EvalQuery>(join(defaultEvalDir(), "queries.dev.jsonl"));
  const tools = evalTools.map((tool) => ({ name: tool.name, description: tool.description, inputJSONSchema: tool.input_schema ?? { type: "object" }, aliases: [], mcpInfo: { server: tool.server, tool: tool.name } }) as unknown as Tool);
  const sliced = new SearchSync({ sliceMs: 1 });
  sliced.sync(tools);
  await caughtUp(sliced);
  const direct = new ToolSearchIndex();
  for (const tool of tools) direct.add(searchDocument(tool));
  let differ = 0;
  for (const query of queries) {
    const a = JSON.stringify(sliced.query(query.query, { maxResults: 10 }));
    const b = JSON.stringify(direct.query(query.query, { maxResults: 10 }));
    if (a !== b) differ++;
  }
  return { tools: tools.length, queries: queries.length, slices: sliced.stats.slices, rankingsDiffer: differ };
}

const out: Record<string, unknown> = {};
if (!args.has("no-socket")) {
  out.socket = [];
  for (const size of sizes) (out.socket as unknown[]).push(await socketRun(size));
}
if (!args.has("no-relist")) {
  out.relist = [];
  for (const size of sizes) (out.relist as unknown[]).push(await relistRun(size));
}
if (args.has("rankings")) out.rankings = await rankingsRun();
console.log(JSON.stringify(out, null, 2));
