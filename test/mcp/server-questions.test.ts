/**
 * Questions from a 2026-07-28 server (`input_required` results) over the socket: the caller that
 * declared it answers (`_meta["toolpool/answers"]`) is sent `toolpool/question`, answers with
 * `toolpool/answer`, and the call is retried with the answer and the server's `requestState`; a
 * caller that declared nothing gets a tool error naming the question; a task result, a server that
 * never stops asking, and a second client trying to see or answer another client's question.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { QuestionNotification } from "../../src/client/client.ts";
import { Method } from "../../src/protocol/method-names.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { startMcpDaemon } from "./mcp-daemon.ts";
import { tempDir, waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

const FIXTURE = join(import.meta.dir, "..", "fixtures", "mcp", "revision-2026-server.ts");

async function startDaemon(log: string) {
  const running = await startMcpDaemon({ moon: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_LOG_FILE: log }, timeoutMs: 10_000 } });
  await waitFor(() => running.daemon.core.mcp()?.server("moon")?.state === "connected", "the 2026 server connected");
  return running;
}

const callsLogged = (log: string) =>
  readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { method: string; _meta: Record<string, unknown> })
    .filter((request) => request.method === "tools/call");

describe("input_required (2026-07-28) over the socket", () => {
  test("the caller is asked, answers, and the retried call succeeds with the answer and the echoed requestState", async () => {
    const log = join(tempDir(), "requests.jsonl");
    await using running = await startDaemon(log);
    const asked: QuestionNotification[] = [];
    const result = await running.client.call(
      { name: "mcp__moon__delete_file", input: { path: "/srv/a.txt" } },
      {
        answers: {
          kinds: ["elicitation"],
          answer: async (question) => {
            asked.push(question);
            return { action: "accept", content: { sure: true } };
          },
        },
      },
    );
    expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: "deleted /srv/a.txt" }] });
    expect(asked).toEqual([
      {
        questionId: expect.any(String) as unknown as string,
        requestId: expect.anything() as unknown as number,
        server: "moon",
        tool: "delete_file",
        kind: "elicitation",
        method: "elicitation/create",
        params: { message: "Delete /srv/a.txt?", requestedSchema: { type: "object", properties: { sure: { type: "boolean" } }, required: ["sure"] } },
      },
    ]);
    // Both rounds declared elicitation (the caller's kinds), nothing else.
    expect(callsLogged(log).map((call) => call._meta["io.modelcontextprotocol/clientCapabilities"])).toEqual([{ elicitation: { form: {} } }, { elicitation: { form: {} } }]);
  });

  test("a sampling question goes to a caller that answers sampling", async () => {
    await using running = await startDaemon(join(tempDir(), "requests.jsonl"));
    const result = await running.client.call(
      { name: "mcp__moon__summarise", input: { text: "a long story" } },
      { answers: { kinds: ["sampling"], answer: async () => ({ role: "assistant", content: { type: "text", text: "short" }, model: "test-model" }) } },
    );
    expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: "summary: short" }] });
  });

  test("a caller that declared nothing gets a tool error naming the question; the server was told no capability", async () => {
    const log = join(tempDir(), "requests.jsonl");
    await using running = await startDaemon(log);
    const result = await running.client.call({ name: "mcp__moon__delete_file", input: { path: "/srv/a.txt" } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: "text",
        text: 'The call to delete_file was not completed: the server asked elicitation/create ("Delete /srv/a.txt?"), but the client that made this call did not declare the elicitation capability, so nobody could answer it.',
      },
    ]);
    // A caller that answers sampling only is not asked an elicitation either.
    const sampling = await running.client.call({ name: "mcp__moon__delete_file", input: { path: "/srv/b.txt" } }, { answers: { kinds: ["sampling"], answer: async () => ({}) } });
    expect(JSON.stringify(sampling.content)).toContain("did not declare the elicitation capability");
    expect(callsLogged(log).map((call) => call._meta["io.modelcontextprotocol/clientCapabilities"])).toEqual([{}, { sampling: {} }]);
  });

  test("a client error instead of an answer ends the call with that error named", async () => {
    await using running = await startDaemon(join(tempDir(), "requests.jsonl"));
    const result = await running.client.call(
      { name: "mcp__moon__delete_file", input: { path: "/srv/a.txt" } },
      { answers: { kinds: ["elicitation"], answer: async () => Promise.reject(new Error("the person closed the dialog")) } },
    );
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("the answer did not come: the client answered with an error: the person closed the dialog");
  });

  test("an answer the daemon refuses (over the size limit) ends the call at once, saying why, instead of leaving it to time out", async () => {
    await using running = await startDaemon(join(tempDir(), "requests.jsonl"));
    const started = Date.now();
    const result = await running.client.call(
      { name: "mcp__moon__summarise", input: { text: "a long story" } },
      { answers: { kinds: ["sampling"], answer: async () => ({ role: "assistant", content: { type: "text", text: "x".repeat(300_000) }, model: "test-model" }) } },
    );
    expect({ isError: result.isError, fast: Date.now() - started < 5_000 }).toEqual({ isError: true, fast: true });
    expect(JSON.stringify(result.content)).toContain("the client answered with an error: its answer was refused: Invalid params: the answer is 300");
  });

  test("a task result (the tasks extension) and a server that never stops asking are clear tool errors", async () => {
    await using running = await startDaemon(join(tempDir(), "requests.jsonl"));
    const task = await running.client.call({ name: "mcp__moon__long_job", input: {} });
    expect(task).toMatchObject({ isError: true, content: [{ type: "text", text: 'The server answered long_job with resultType "task", which toolpool does not follow (a task of the tasks extension is not polled); the call was not completed.' }] });
    let rounds = 0;
    const nag = await running.client.call({ name: "mcp__moon__nag", input: {} }, { answers: { kinds: ["elicitation"], answer: async () => (rounds++, { action: "accept", content: {} }) } });
    expect(rounds).toBe(8);
    expect(nag).toMatchObject({ isError: true, content: [{ type: "text", text: "The server asked for input 8 times in a row while running nag; toolpool stopped there and the call was not completed." }] });
  });

  test("through the documented pair on a raw socket: toolpool/question for the call's request id, toolpool/answer back", async () => {
    await using running = await startDaemon(join(tempDir(), "requests.jsonl"));
    using raw = await RawClient.open(running.socketPath);
    raw.send({ jsonrpc: "2.0", id: "call-1", method: "toolpool/call", params: { name: "mcp__moon__delete_file", input: { path: "/srv/c.txt" }, _meta: { "toolpool/answers": ["elicitation"] } } });
    const question = await raw.waitFor((message) => message.method === "toolpool/question");
    const params = question.params as Record<string, unknown>;
    expect(params).toMatchObject({ requestId: "call-1", server: "moon", tool: "delete_file", kind: "elicitation", method: "elicitation/create" });
    // Bad answers are refused with the reason, and the question stays open.
    const both = await raw.request("toolpool/answer", { questionId: params.questionId, result: {}, error: { code: 1, message: "x" } });
    expect(JSON.stringify(both.error)).toContain("give exactly one of result and error");
    const answered = await raw.request("toolpool/answer", { questionId: params.questionId, result: { action: "decline" } });
    expect(answered.result).toEqual({ answered: true });
    const done = await raw.waitFor((message) => message.id === "call-1");
    expect(done.result).toMatchObject({ isError: false, content: [{ type: "text", text: "kept /srv/c.txt (decline)" }] });
    // Answered once: a second answer finds nothing open.
    const again = await raw.request("toolpool/answer", { questionId: params.questionId, result: { action: "accept", content: { sure: true } } });
    expect((again.error as { message: string }).message).toContain("no open question");
  });

  test("hostile: another client neither sees the question nor can answer it; a cancelled call withdraws it", async () => {
    await using running = await startDaemon(join(tempDir(), "requests.jsonl"));
    using owner = await RawClient.open(running.socketPath);
    using other = await RawClient.open(running.socketPath);
    // The other client also has a call open that would take questions, on the same server.
    other.send({ jsonrpc: "2.0", id: 7, method: "toolpool/call", params: { name: "mcp__moon__lunar_phase", input: { date: "2026-01-01" }, _meta: { "toolpool/answers": ["elicitation", "sampling"] } } });
    await other.waitFor((message) => message.id === 7);
    owner.send({ jsonrpc: "2.0", id: 1, method: "toolpool/call", params: { name: "mcp__moon__delete_file", input: { path: "/srv/secret" }, _meta: { "toolpool/answers": ["elicitation"] } } });
    const question = await owner.waitFor((message) => message.method === "toolpool/question");
    const questionId = (question.params as { questionId: string }).questionId;
    const stolen = await other.request("toolpool/answer", { questionId, result: { action: "accept", content: { sure: true } } });
    expect((stolen.error as { code: number; message: string }).code).toBe(-32602);
    expect((stolen.error as { message: string }).message).toContain("no open question");
    expect(other.messages.filter((message) => typeof message.method === "string" && String(message.method).startsWith("toolpool/question"))).toEqual([]);
    expect(JSON.stringify(other.messages)).not.toContain("/srv/secret");
    // The owner cancels: the question is withdrawn, and answering it afterwards finds nothing.
    owner.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "stop" } });
    const withdrawn = await owner.waitFor((message) => message.method === Method.QuestionWithdrawn);
    expect(withdrawn.params).toEqual({ questionId, reason: "stop" });
    const late = await owner.request("toolpool/answer", { questionId, result: { action: "accept", content: { sure: true } } });
    expect((late.error as { message: string }).message).toContain("no open question");
  });
});
