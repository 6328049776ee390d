/**
 * A pooled server's questions reach the host that made the call, through the bridge: the reference
 * everything server's `trigger-elicitation-request` (it sends `elicitation/create` while the call
 * runs), called by an SDK client that declares elicitation and answers it — the answer arrives in
 * the tool result; the same host without the capability gets a tool error naming the question.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { linkHost, textOf, waitUntil } from "./fixtures.ts";

setDefaultTimeout(60_000);

const REPO = join(import.meta.dir, "..", "..");
const everything = {
  command: join(REPO, "node_modules", ".bin", "bun"),
  args: [join(REPO, "node_modules", ".bin", "mcp-server-everything"), "stdio"],
  timeoutMs: 30_000,
};
const TOOL = "mcp__everything__trigger-elicitation-request";

async function startWithEverything() {
  const harness = await startTestDaemon({ builtins: [echoTool], config: { mcpServers: { everything } } });
  await waitUntil(() => harness.daemon.core.mcp()?.server("everything")?.state === "connected", "the everything server to connect", 30_000);
  return harness;
}

/** Through the proxy view: the search reveals the tool, ExecuteExtraTool runs it. */
async function callThroughBridge(host: Awaited<ReturnType<typeof linkHost>>) {
  const found = await host.client.callTool({ name: "ToolSearch", arguments: { query: `select:${TOOL}` } });
  expect(textOf(found)).toContain(TOOL);
  return host.client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: TOOL, params: {} } });
}

const FIXTURE_2026 = join(import.meta.dir, "..", "fixtures", "mcp", "revision-2026-server.ts");

describe("servers' questions through the bridge", () => {
  test("a 2026-07-28 server's input_required: the host is asked (elicitation/create), answers, and the retried call succeeds", async () => {
    await using daemon = await startTestDaemon({ builtins: [echoTool], config: { mcpServers: { moon: { command: process.execPath, args: [FIXTURE_2026], timeoutMs: 10_000 } } } });
    await waitUntil(() => daemon.daemon.core.mcp()?.server("moon")?.state === "connected", "the 2026 server to connect");
    const asked: unknown[] = [];
    await using host = await linkHost(daemon.socketPath, {
      capabilities: { elicitation: { form: {} } },
      setup: (client) =>
        client.setRequestHandler(ElicitRequestSchema, (request) => {
          asked.push(request.params);
          return { action: "accept", content: { sure: true } };
        }),
    });
    await host.client.callTool({ name: "ToolSearch", arguments: { query: "select:mcp__moon__delete_file" } });
    const result = await host.client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: "mcp__moon__delete_file", params: { path: "/srv/old.log" } } });
    expect(result).toEqual({ content: [{ type: "text", text: "deleted /srv/old.log" }], isError: false });
    expect(asked).toEqual([{ message: "Delete /srv/old.log?", requestedSchema: { type: "object", properties: { sure: { type: "boolean" } }, required: ["sure"] } }]);
  });

  test("a host that declares elicitation is asked, and its answer arrives end to end in the tool result", async () => {
    await using daemon = await startWithEverything();
    const asked: unknown[] = [];
    await using host = await linkHost(daemon.socketPath, {
      capabilities: { elicitation: { form: {} } },
      setup: (client) =>
        client.setRequestHandler(ElicitRequestSchema, (request) => {
          asked.push(request.params);
          return { action: "accept", content: { name: "Ada Lovelace", check: true, integer: 7 } };
        }),
    });
    const result = await callThroughBridge(host);
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("User provided the requested information");
    expect(textOf(result)).toContain("- Name: Ada Lovelace");
    expect(textOf(result)).toContain("- Favorite Integer: 7");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: "Please provide inputs for the following fields:", requestedSchema: { type: "object", required: ["name"] } });
  });

  test("a host that declares elicitation and declines: the server sees the decline", async () => {
    await using daemon = await startWithEverything();
    await using host = await linkHost(daemon.socketPath, {
      capabilities: { elicitation: { form: {} } },
      setup: (client) => client.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" })),
    });
    const result = await callThroughBridge(host);
    expect(textOf(result)).toContain("declined");
  });

  test("a host without the elicitation capability gets a clear tool error naming what the server asked", async () => {
    await using daemon = await startWithEverything();
    await using host = await linkHost(daemon.socketPath);
    const result = await callThroughBridge(host);
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toStartWith('toolpool: the server asked elicitation/create ("Please provide inputs for the following fields:"), but the client that made this call did not declare the elicitation capability, so nobody could answer it.');
  });
});
