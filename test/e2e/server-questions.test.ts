/**
 * The compiled binary end to end: `serve --demo` pools the reference everything server, an MCP host
 * runs `toolpool mcp` over stdio and declares elicitation; the server's `elicitation/create` reaches
 * the host, and its answer arrives in the tool result. The same host without the capability gets
 * the tool error naming the question. Needs the build.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { ToolpoolClient } from "../../src/client/client.ts";
import { binaryPath, REPO_ROOT, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";

setDefaultTimeout(90_000);

const TOOL = "mcp__everything__trigger-elicitation-request";

async function host(socketPath: string, capabilities: ClientCapabilities, asked: string[]) {
  const client = new Client({ name: "e2e-host", version: "1" }, { capabilities });
  if (capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { name: "Katherine Johnson", check: true } };
    });
  }
  await client.connect(new StdioClientTransport({ command: binaryPath(), args: ["mcp", "--socket", socketPath], env: { ...process.env } as Record<string, string>, stderr: "pipe" }));
  return client;
}

test("compiled: the everything server's elicitation reaches the stdio host that declared it; without the capability, a clear tool error", async () => {
  const socketPath = join(tempSocketDir(), "q.sock");
  await using daemon = await startBinaryDaemon(socketPath, ["--demo"], {}, undefined, REPO_ROOT);
  const admin = await ToolpoolClient.connect(socketPath);
  try {
    const deadline = Date.now() + 60_000;
    while (!(await admin.servers()).servers.some((server) => server.name === "everything" && server.state === "connected")) {
      if (Date.now() > deadline) throw new Error("the everything server did not connect");
      await Bun.sleep(50);
    }
    const asked: string[] = [];
    const answering = await host(socketPath, { elicitation: { form: {} } }, asked);
    const silent = await host(socketPath, {}, asked);
    try {
      for (const client of [answering, silent]) await client.callTool({ name: "ToolSearch", arguments: { query: `select:${TOOL}` } });
      const run = { name: "ExecuteExtraTool", arguments: { tool_name: TOOL, params: {} } };
      const answered = await answering.callTool(run);
      expect(JSON.stringify(answered.content)).toContain("- Name: Katherine Johnson");
      expect(asked).toEqual(["Please provide inputs for the following fields:"]);
      const refused = await silent.callTool(run);
      expect(refused.isError).toBe(true);
      expect((refused.content as { text: string }[])[0]!.text).toContain('the server asked elicitation/create ("Please provide inputs for the following fields:"), but the client that made this call did not declare the elicitation capability');
      expect(asked).toHaveLength(1);
    } finally {
      await answering.close();
      await silent.close();
    }
    await admin.shutdown();
    // Its own exit removes the demo's scratch directory: no kill before that.
    await daemon.child.exited;
  } finally {
    admin.close();
  }
});
