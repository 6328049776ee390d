// test-plan: one tier — MCP conformance of the pool's client, no feature() on its path.
/**
 * The MCP conformance suite (@modelcontextprotocol/conformance) against the pool's MCP client: every
 * client scenario each revision requires (`--requirements`, the suite's frozen list, auth included),
 * at 2025-11-25 (initialize and sessions) and at 2026-07-28 (stateless), each run through
 * scripts/conformance-client.ts, which pools the suite's server with the daemon's own McpPool. The
 * run must exit 0 with conformance-client-expected-failures.yaml as its baseline: that file lists only
 * checks of unscored OAuth extensions toolpool does not implement, so any other failing check fails
 * this test, and so does a listed check that starts passing (the suite calls the baseline stale).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers/binary.ts";

const CONFORMANCE = join(REPO_ROOT, "node_modules", ".bin", "conformance");
const CLIENT = join(REPO_ROOT, "scripts", "conformance-client.ts");
const BASELINE = join(import.meta.dir, "conformance-client-expected-failures.yaml");
/** The whole run of one revision is bounded: a hung scenario fails the test instead of stalling CI. */
const RUN_TIMEOUT_MS = 240_000;
/** Clients of the suite running at once (the rest wait for a slot), and each scenario's limit, wait included. */
const CONCURRENT_CLIENTS = 4;
const SCENARIO_TIMEOUT_MS = 180_000;

async function runClientRequirements(revision: string): Promise<{ code: number; total: string; unexpected: string }> {
  const output = mkdtempSync(join(tmpdir(), "conformance-client-"));
  try {
    // Bun runs the suite and the client: the suite needs a newer Node than the machine's.
    const command = `${process.execPath} ${CLIENT}`;
    // The suite starts all its clients at once; a few at a time keep a loaded CI machine from
    // slowing the scenario servers past the pool's probe timeout (the queue counts in --timeout).
    const slots = mkdtempSync(join(output, "slots-"));
    const child = Bun.spawn([process.execPath, CONFORMANCE, "client", "--command", command, "--requirements", revision, "--expected-failures", BASELINE, "--timeout", String(SCENARIO_TIMEOUT_MS), "-o", output], {
      cwd: REPO_ROOT,
      env: { ...process.env, TOOLPOOL_CONFORMANCE_SLOTS: `${slots}:${CONCURRENT_CLIENTS}` },
      stdout: "pipe",
      stderr: "pipe",
      timeout: RUN_TIMEOUT_MS,
    });
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    const plain = `${stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, "");
    const start = plain.indexOf("=== SUITE SUMMARY ===");
    const summary = start === -1 ? plain.slice(-3_000) : plain.slice(start);
    // Printed so a run's log carries both summaries (the issue asks for them).
    console.log(`conformance client scenarios at ${revision}\n${summary}`);
    const unexpected = /Unexpected failures?[\s\S]*|stale[\s\S]*/i.exec(summary)?.[0] ?? "";
    return { code, total: /Total: \d+ passed, \d+ failed/.exec(summary)?.[0] ?? summary, unexpected };
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

describe("MCP conformance suite, client scenarios", () => {
  for (const revision of ["2025-11-25", "2026-07-28"]) {
    test(`the pool's client at ${revision}: every required scenario passes`, async () => {
      const run = await runClientRequirements(revision);
      expect({ code: run.code, unexpected: run.unexpected }).toEqual({ code: 0, unexpected: "" });
      expect(run.total).toMatch(/^Total: [1-9]\d* passed/);
    }, RUN_TIMEOUT_MS + 10_000);
  }
});
