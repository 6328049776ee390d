// test-plan: one tier — the MCP face over the socket, the same code in every tier.
import { expect, test } from "bun:test";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startBinaryDaemon, testTier } from "../helpers/binary.ts";

test(`a raw NDJSON client drives the compiled ${testTier()} daemon: initialize, tools/list, tools/call Read, toolpool/status`, async () => {
  const workspace = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "ws-")));
  writeFileSync(join(workspace, "notes.txt"), "first line\nsecond line\n");
  const socketPath = join(tempSocketDir(), "r.sock");
  await using _daemon = await startBinaryDaemon(socketPath, [], {}, undefined, workspace);
  using client = await RawClient.open(socketPath);

  const init = await client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw-e2e", version: "0" } });
  expect(init.result).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { name: "toolpool" }, capabilities: { tools: { listChanged: true } } });
  client.send({ jsonrpc: "2.0", method: "notifications/initialized" });

  const listed = (await client.request("tools/list")).result as { tools: { name: string }[] };
  const names = listed.tools.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Bash", "Glob", "Grep", "ToolSearch", "ExecuteExtraTool"]));
  // Deferred built-ins wait behind ToolSearch for a plain MCP client.
  expect(names).not.toContain("WebFetch");

  const read = await client.request("tools/call", { name: "Read", arguments: { file_path: join(workspace, "notes.txt") } });
  expect(read.result).toEqual({ content: [{ type: "text", text: "     1\tfirst line\n     2\tsecond line" }], isError: false });

  const outside = await client.request("tools/call", { name: "Read", arguments: { file_path: "/etc/hostname" } });
  expect(outside.result).toMatchObject({ isError: true });

  const status = (await client.request("toolpool/status")).result as Record<string, unknown>;
  expect(status).toMatchObject({ tier: testTier(), compiled: true, calls: { total: 2, inFlight: 0 }, sessions: { active: 1 } });
});
