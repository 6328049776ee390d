/**
 * A 2025 stdio server asks a question while two of its calls run (test/fixtures/mcp/asking-2025-server.ts):
 * nothing in its request says which call asked. When both calls come from the same caller (one
 * connection's one session) the question goes to that caller; when they come from two callers it
 * is refused, saying why, and neither caller is asked.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ToolpoolClient, type QuestionAnswerer, type QuestionNotification } from "../../src/client/client.ts";
import { startMcpDaemon } from "./mcp-daemon.ts";
import { tempDir, waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

const FIXTURE = join(import.meta.dir, "..", "fixtures", "mcp", "asking-2025-server.ts");

async function startDaemon(log: string) {
  const running = await startMcpDaemon({ ask: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_LOG_FILE: log }, timeoutMs: 10_000 } });
  await waitFor(() => running.daemon.core.mcp()?.server("ask")?.state === "connected", "the 2025 server connected");
  return running;
}

const started = (log: string, call: string) => existsSync(log) && readFileSync(log, "utf8").includes(JSON.stringify({ call }));

function answerer(asked: QuestionNotification[]): QuestionAnswerer {
  return {
    kinds: ["elicitation"],
    answer: async (question) => {
      asked.push(question);
      return { action: "accept", content: { ok: true } };
    },
  };
}

const textOf = (result: { content: unknown[] }) => (result.content as { type: string; text?: string }[]).map((block) => block.text ?? "").join("");

describe("a 2025 server's question while two of its calls run", () => {
  test("both calls from the same caller: the caller is asked, and both calls complete", async () => {
    const log = join(tempDir(), "calls.jsonl");
    await using running = await startDaemon(log);
    // A session whose calls run as they come (a stateless bridge caller's): in an ordered session
    // confirm would wait for hold, which waits for confirm's question.
    await running.client.session({ concurrentCalls: true });
    const asked: QuestionNotification[] = [];
    const hold = running.client.call({ name: "mcp__ask__hold", input: {} }, { answers: answerer(asked) });
    await waitFor(() => started(log, "hold"), "hold to run in the server");
    const confirm = await running.client.call({ name: "mcp__ask__confirm", input: {} }, { answers: answerer(asked) });
    expect({ isError: confirm.isError, text: textOf(confirm) }).toEqual({ isError: false, text: 'confirmed: {"ok":true}' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ server: "ask", kind: "elicitation", method: "elicitation/create", params: { message: "Proceed?" } });
    expect(asked[0]!.tool).toBe("one of hold, confirm");
    expect(textOf(await hold)).toBe("released");
  });

  test("the calls from two callers: refused with the reason, and neither caller is asked", async () => {
    const log = join(tempDir(), "calls.jsonl");
    await using running = await startDaemon(log);
    const other = await ToolpoolClient.connect(running.socketPath);
    try {
      const askedA: QuestionNotification[] = [];
      const askedB: QuestionNotification[] = [];
      const hold = running.client.call({ name: "mcp__ask__hold", input: {} }, { answers: answerer(askedA) });
      await waitFor(() => started(log, "hold"), "hold to run in the server");
      const confirm = await other.call({ name: "mcp__ask__confirm", input: {} }, { answers: answerer(askedB) });
      expect(confirm.isError).toBe(true);
      expect(textOf(confirm)).toBe(
        'not confirmed: MCP error -32600: elicitation/create ("Proceed?") arrived while 2 calls of this server were in flight for 2 different callers, and a request over this transport does not say which call it belongs to; toolpool does not guess whom to ask (set maxConcurrent: 1 on a server that asks questions)',
      );
      expect([askedA, askedB]).toEqual([[], []]);
      expect(textOf(await hold)).toBe("released");
    } finally {
      other.close();
    }
  });
});
