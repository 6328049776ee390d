// test-plan: one tier — the usage history, the same code in every tier.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ToolpoolClient } from "../../src/client/client.ts";
import type { StatsResult } from "../../src/protocol/stats-result.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { runBinary, startBinaryDaemon } from "../helpers/binary.ts";

/** Every temp dir a test here makes (state, workspaces, socket dirs) goes when the file is done. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh state dir (the usage history lives there) and two workspaces. */
function fixture() {
  const root = realpathSync(mkdtempSync("/tmp/tp-usage-"));
  const socketPath = join(tempSocketDir(), "u.sock");
  made.push(root, dirname(socketPath));
  const workspaces = [join(root, "alpha"), join(root, "beta")];
  for (const workspace of workspaces) mkdirSync(workspace);
  writeFileSync(join(workspaces[1]!, "notes.txt"), "hello\n");
  const env = { XDG_STATE_HOME: join(root, "state") };
  return { root, workspaces: workspaces as [string, string], env, socketPath };
}

/** The scripted workload: every count below follows from it. */
async function workload(socketPath: string, [alpha, beta]: [string, string]): Promise<void> {
  const client = await ToolpoolClient.connect(socketPath);
  try {
    const a = (await client.session({ model: "gpt-5", provider: "openai", format: "openai", delivery: "proxy", workspaceRoots: [alpha] })).sessionId;
    await client.assemble({ sessionId: a, messages: [] });
    const search = async (sessionId: string, query: string) =>
      (await client.call({ sessionId, name: "ToolSearch", input: { query } })).structuredContent as { matches: string[] };
    expect((await search(a, "task list")).matches).toContain("TodoWrite");
    const todo = await client.call({ sessionId: a, name: "ExecuteExtraTool", input: { tool_name: "TodoWrite", params: { todos: [{ content: "Write the test", status: "in_progress" }] } } });
    expect(todo.isError).toBe(false);
    expect((await search(a, "zzqqx nothing")).matches).toEqual([]);
    expect((await search(a, "zzqqx nothing")).matches).toEqual([]);
    await search(a, "select:NoSuchTool");
    expect((await client.call({ sessionId: a, name: "Read", input: { file_path: join(alpha, "missing.txt") } })).isError).toBe(true);

    // Another session: a keyword search followed by three calls that are none of its results.
    const b = (await client.session({ model: "gpt-5", provider: "openai", format: "openai", delivery: "proxy", workspaceRoots: [beta] })).sessionId;
    expect((await search(b, "jupyter notebook cell")).matches).toContain("NotebookEdit");
    for (let i = 0; i < 3; i++) expect((await client.call({ sessionId: b, name: "Read", input: { file_path: join(beta, "notes.txt") } })).isError).toBe(false);
  } finally {
    client.close();
  }
}

async function statsJson(socketPath: string, env: Record<string, string>, ...extra: string[]): Promise<StatsResult> {
  const run = await runBinary(["stats", "--json", "--socket", socketPath, ...extra], env);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as StatsResult;
}

/** What the workload produced, read back without the clock. */
function counts(stats: StatsResult) {
  return {
    searches: { ...stats.searches },
    prefetch: stats.prefetch,
    calls: {
      total: stats.calls.total,
      errors: stats.calls.errors,
      tools: stats.calls.tools.map((tool) => [tool.name, tool.count, tool.errors, tool.timeouts, tool.truncations]),
      servers: stats.calls.servers.map((server) => [server.name, server.count, server.errors]),
    },
    tokens: stats.tokens.styles.map((style) => [style.delivery, style.announcements, style.sessions, style.firstRequestTokens < style.standardTokens]),
    counter: stats.tokens,
  };
}

const EXPECTED_SEARCHES = {
  total: 5,
  keyword: 4,
  select: 1,
  discover: 0,
  zeroResults: 2,
  zeroResultQueries: [{ query: "zzqqx nothing", count: 2 }],
  conversion: { keyword: 4, converted: 1, rate: 0.25, window: 3 },
  selectMisses: 1,
  didYouMeanOffers: 0,
};

describe("toolpool stats (compiled binary, real socket)", () => {
  test("a scripted workload gives its exact counts, and a restart keeps them", async () => {
    const { workspaces, env, socketPath, root } = fixture();
    let before: StatsResult;
    {
      await using daemon = await startBinaryDaemon(socketPath, [], env);
      await workload(socketPath, workspaces);
      before = await statsJson(socketPath, env);
      expect(counts(before)).toEqual({
        searches: EXPECTED_SEARCHES,
        prefetch: { suggestions: 0, laterCalled: 0, rate: null },
        calls: {
          total: 10,
          errors: 1,
          tools: [
            ["ToolSearch", 5, 0, 0, 0],
            ["Read", 4, 1, 0, 0],
            ["TodoWrite", 1, 0, 0, 0],
          ],
          servers: [["builtin", 10, 1]],
        },
        // Only session a asked for a tools array.
        tokens: [["proxy", "list", 1, true]],
        counter: { ...before.tokens, estimate: true, counter: "estimate: word pieces" },
      });
      daemon.child.kill("SIGTERM");
      expect(await daemon.child.exited).toBe(0);
    }
    // Private to the user.
    expect(statSync(join(root, "state", "toolpool", "usage.sqlite")).mode & 0o777).toBe(0o600);
    await using again = await startBinaryDaemon(socketPath, [], env);
    const after = await statsJson(socketPath, env);
    expect(counts(after)).toEqual(counts(before));
    // A window that covers the workload holds all of it.
    expect(counts(await statsJson(socketPath, env, "--since", "1h"))).toEqual(counts(before));
    void again;
  }, 60_000);

  test("history clear --workspace forgets one workspace; history clear forgets the rest", async () => {
    const { workspaces, env, socketPath } = fixture();
    await using daemon = await startBinaryDaemon(socketPath, [], env);
    await workload(socketPath, workspaces);
    const cleared = await runBinary(["history", "clear", "--json", "--socket", socketPath, "--workspace", workspaces[0]], env);
    expect(cleared.code).toBe(0);
    const { removed, workspace } = JSON.parse(cleared.stdout) as { removed: number; workspace: string };
    expect(workspace).toBe(workspaces[0]);
    expect(removed).toBeGreaterThan(0);
    const left = await statsJson(socketPath, env);
    expect([left.searches.total, left.searches.keyword, left.calls.total, left.calls.errors]).toEqual([1, 1, 4, 0]);
    expect((await runBinary(["history", "clear", "--socket", socketPath], env)).code).toBe(0);
    const none = await statsJson(socketPath, env);
    expect([none.searches.total, none.calls.total, none.tokens.styles.length]).toEqual([0, 0, 0]);
    void daemon;
  }, 60_000);

  test("history clear without a daemon empties the file itself", async () => {
    const { workspaces, env, socketPath } = fixture();
    {
      await using daemon = await startBinaryDaemon(socketPath, [], env);
      await workload(socketPath, workspaces);
      daemon.child.kill("SIGTERM");
      expect(await daemon.child.exited).toBe(0);
    }
    const cleared = await runBinary(["history", "clear", "--socket", socketPath], env);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toMatch(/^cleared [1-9]\d* history row\(s\) \(all workspaces\) — no daemon running; cleared the history file directly\n$/);
    await using again = await startBinaryDaemon(socketPath, [], env);
    const none = await statsJson(socketPath, env);
    expect([none.searches.total, none.calls.total]).toEqual([0, 0]);
    void again;
  }, 60_000);

  test("bad windows and arguments are refused with a usage error", async () => {
    const { env, socketPath } = fixture();
    for (const args of [["stats", "--since", "yesterday"], ["stats", "--since", "0h"], ["stats", "--since", "400d"], ["history"], ["history", "forget"]]) {
      const run = await runBinary([...args, "--socket", socketPath], env);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("toolpool: ");
    }
  });
});
