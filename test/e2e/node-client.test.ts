// test-plan: one tier — the built client library against an in-process daemon, no tier feature.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { REPO_ROOT } from "../helpers/binary.ts";
import { echoTool } from "../helpers/test-tools.ts";

test("the built client library works from Node: session, assemble, call, status", async () => {
  await using harness = await startTestDaemon({ builtins: [echoTool] });
  const script = `
    const { ToolpoolClient } = await import(${JSON.stringify(join(REPO_ROOT, "dist", "client", "client.js"))});
    const client = await ToolpoolClient.connect(${JSON.stringify(harness.socketPath)});
    const { sessionId } = await client.session({ model: "gpt-5" });
    const assembled = await client.assemble({ sessionId, messages: [] });
    const called = await client.call({ sessionId, name: "Echo", input: { text: "from node" }, toolUseId: "c1" });
    const status = await client.status();
    console.log(JSON.stringify({ tools: assembled.tools.length, toolResult: called.toolResult, sessions: status.sessions.active }));
    client.close();
  `;
  const child = Bun.spawn(["node", "--input-type=module", "-e", script], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ tools: 1, toolResult: { role: "tool", tool_call_id: "c1", content: "from node" }, sessions: 1 });
});
