// test-plan: one tier — MCP conformance of the bridge, no feature() on its path.
/**
 * The MCP conformance suite (@modelcontextprotocol/conformance) against the bridges: the server
 * scenarios each revision requires (`--requirements`, the suite's frozen list), at 2025-11-25
 * (initialize and sessions) and at 2026-07-28 (stateless), against the HTTP bridge and the stdio
 * bridge (behind stdio-http-relay.ts: the suite speaks HTTP only). The run must exit 0 with
 * conformance-expected-failures.yaml as its baseline: that file lists only the checks that need the
 * suite's own fixture tools, resources or prompts, so any other failing check fails this test, and
 * so does a listed check that starts passing (the suite calls the baseline stale).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DaemonBridge } from "../../src/bridge/daemon-bridge.ts";
import { startHttpBridge } from "../../src/bridge/http-bridge.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { REPO_ROOT } from "../helpers/binary.ts";
import { startBridgeDaemon } from "./fixtures.ts";
import { startStdioRelay } from "./stdio-http-relay.ts";

const CONFORMANCE = join(REPO_ROOT, "node_modules", ".bin", "conformance");
const BASELINE = join(import.meta.dir, "conformance-expected-failures.yaml");
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
/** The whole run of one revision is bounded: a hung scenario fails the test instead of stalling CI. */
const RUN_TIMEOUT_MS = 150_000;

async function runRequirements(url: string, revision: string): Promise<{ code: number; summary: string; unexpected: string }> {
  const output = mkdtempSync(join(tmpdir(), "conformance-"));
  // Bun runs the suite: it needs a newer Node than the machine's.
  const child = Bun.spawn([process.execPath, CONFORMANCE, "server", "--url", url, "--requirements", revision, "--expected-failures", BASELINE, "-o", output], {
    stdout: "pipe",
    stderr: "pipe",
    timeout: RUN_TIMEOUT_MS,
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  const plain = `${stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, "");
  const summary = plain.slice(plain.indexOf("=== SUMMARY ==="));
  // Printed so a run's log carries both summaries (the issue asks for them).
  console.log(`conformance ${revision} against ${url}\n${summary}`);
  const unexpected = /Unexpected failures[\s\S]*|stale[\s\S]*/i.exec(summary)?.[0] ?? "";
  return { code, summary: /Total: \d+ passed, \d+ failed/.exec(summary)?.[0] ?? plain.slice(-2_000), unexpected };
}

describe("MCP conformance suite, server scenarios", () => {
  for (const revision of REVISIONS) {
    test(`toolpool mcp --http at ${revision}: every check outside the suite's fixture content passes`, async () => {
      await using daemon = await startBridgeDaemon();
      await using bridge = startHttpBridge({
        token: "test-token-0123456789abcdefghijklmnopqrstuv",
        address: { hostname: "127.0.0.1", port: 0 },
        createBridge: () => new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath) }),
        version: "test",
        log: () => {},
      });
      const run = await runRequirements(bridge.url, revision);
      expect({ code: run.code, unexpected: run.unexpected }).toEqual({ code: 0, unexpected: "" });
      expect(run.summary).toMatch(/^Total: \d+ passed/);
    }, RUN_TIMEOUT_MS + 10_000);

    test(`toolpool mcp on stdio at ${revision}: every check outside the suite's fixture content passes`, async () => {
      await using daemon = await startBridgeDaemon();
      await using relay = startStdioRelay(daemon.socketPath);
      const run = await runRequirements(relay.url, revision);
      expect({ code: run.code, unexpected: run.unexpected }).toEqual({ code: 0, unexpected: "" });
    }, RUN_TIMEOUT_MS + 10_000);
  }
});
