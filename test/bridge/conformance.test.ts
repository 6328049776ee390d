// test-plan: one tier — MCP conformance of the bridge, no feature() on its path.
/**
 * The MCP conformance suite (@modelcontextprotocol/conformance) against the HTTP bridge, on the
 * server scenarios that apply to a tools-only server bridged to a daemon. The others need the
 * suite's own fixture tools (test_simple_text, test_tool_with_progress, …), resources, prompts,
 * logging or completions, none of which a bridge to a real tool pool has: see docs/operations.md.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DaemonBridge } from "../../src/bridge/daemon-bridge.ts";
import { startHttpBridge } from "../../src/bridge/http-bridge.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { REPO_ROOT } from "../helpers/binary.ts";
import { startBridgeDaemon } from "./fixtures.ts";

const CONFORMANCE = join(REPO_ROOT, "node_modules", ".bin", "conformance");
const APPLICABLE = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"] as const;

async function runScenario(url: string, scenario: string): Promise<{ code: number; summary: string }> {
  // Bun runs the suite: it needs a newer Node than the machine's.
  const child = Bun.spawn([process.execPath, CONFORMANCE, "server", "--url", url, "--scenario", scenario], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  const plain = `${stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, "");
  return { code, summary: /Passed: \d+\/\d+, \d+ failed/.exec(plain)?.[0] ?? plain.slice(-2_000) };
}

describe("MCP conformance suite against toolpool mcp --http", () => {
  test.each(APPLICABLE.map((scenario) => [scenario]))("%s passes", async (scenario) => {
    await using daemon = await startBridgeDaemon();
    await using bridge = startHttpBridge({
    token: "test-token-0123456789abcdefghijklmnopqrstuv",
      address: { hostname: "127.0.0.1", port: 0 },
      createBridge: () => new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath) }),
      version: "test",
      log: () => {},
    });
    const expected = scenario === "dns-rebinding-protection" ? "Passed: 2/2, 0 failed" : "Passed: 1/1, 0 failed";
    expect(await runScenario(bridge.url, scenario)).toEqual({ code: 0, summary: expected });
  });
});
