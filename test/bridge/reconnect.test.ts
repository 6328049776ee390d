import { expect, test } from "bun:test";
import { join } from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { linkHost, startDaemonAt, textOf, waitUntil } from "./fixtures.ts";

test("the daemon restarts under a bridge: the next call reconnects, resumes the session id, and the host hears list_changed", async () => {
  const socketPath = join(tempSocketDir(), "r.sock");
  const first = await startDaemonAt(socketPath);
  await using host = await linkHost(socketPath);
  let changes = 0;
  host.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  expect(textOf(await host.client.callTool({ name: "Echo", arguments: { text: "before" } }))).toBe("before");
  const sessionId = host.bridge.sessionId;
  await first.stop("restart");

  const second = await startDaemonAt(socketPath);
  try {
    expect(textOf(await host.client.callTool({ name: "Echo", arguments: { text: "after" } }))).toBe("after");
    expect(host.bridge.sessionId).toBe(sessionId!);
    expect(second.sessions.get(sessionId!)?.settings.clientName).toBe("test-host");
    await waitUntil(() => changes === 1, "list_changed after reconnecting");
    // Discoveries lived in the old daemon; a search in the new one finds the tool again.
    const refused = await host.client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: "TranslateText", params: { text: "a" } } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("The input schema of TranslateText");
  } finally {
    await second.stop("test finished");
  }
});
