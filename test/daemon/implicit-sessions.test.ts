/** One-shot clients (`toolpool call`, a plain MCP client) do not leave detached sessions behind. */
import { expect, test } from "bun:test";
import { ToolpoolClient } from "../../src/client/client.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";

async function waitFor(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

test("a session opened implicitly for a connection goes when the connection closes; a named one stays resumable", async () => {
  await using test = await startTestDaemon();
  const watcher = await ToolpoolClient.connect(test.socketPath);
  try {
    for (let i = 0; i < 5; i++) {
      const once = await ToolpoolClient.connect(test.socketPath);
      await once.call({ name: "Glob", input: { pattern: "*.nothing" } });
      once.close();
    }
    const named = await ToolpoolClient.connect(test.socketPath);
    const { sessionId } = await named.session({});
    named.close();
    await waitFor(async () => (await watcher.status()).connections === 1, "the one-shot connections to close");
    expect((await watcher.status()).sessions).toEqual({ active: 0, detached: 1 });
    const back = await ToolpoolClient.connect(test.socketPath);
    expect((await back.session({ sessionId })).sessionId).toBe(sessionId);
    back.close();
  } finally {
    watcher.close();
  }
});
