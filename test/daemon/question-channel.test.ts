/** The socket's question channel: opt-in per call, bounded per connection, withdrawn with the call, answered only on its own connection. */
import { describe, expect, test } from "bun:test";
import type { Connection } from "../../src/daemon/connection.ts";
import { answerQuestion, MAX_OPEN_QUESTIONS_PER_CONNECTION, questionChannel } from "../../src/daemon/question-channel.ts";
import { RpcError } from "../../src/protocol/jsonrpc.ts";
import type { ServerQuestion } from "../../src/protocol/server-question.ts";

function fakeConnection() {
  const sent: Record<string, unknown>[] = [];
  const connection = { closed: false, questions: new Map(), send: (message: Record<string, unknown>) => sent.push(message) } as unknown as Connection;
  return { connection, sent };
}

const question: ServerQuestion = { kind: "elicitation", method: "elicitation/create", params: { message: "Sure?" }, server: "s", tool: "t" };

describe("questionChannel", () => {
  test("no channel unless the request names kinds it answers; unknown kinds are ignored", () => {
    const { connection } = fakeConnection();
    expect(questionChannel(connection, 1, undefined)).toBeUndefined();
    expect(questionChannel(connection, 1, { "toolpool/answers": ["roots", 3] })).toBeUndefined();
    expect([...questionChannel(connection, 1, { "toolpool/answers": ["sampling", "roots"] })!.kinds]).toEqual(["sampling"]);
  });

  test("at most MAX_OPEN_QUESTIONS_PER_CONNECTION open; an answer settles one; an oversized answer is refused and the question stays open", async () => {
    const { connection, sent } = fakeConnection();
    const channel = questionChannel(connection, "r", { "toolpool/answers": ["elicitation"] })!;
    const signal = new AbortController().signal;
    const open = Array.from({ length: MAX_OPEN_QUESTIONS_PER_CONNECTION }, () => channel.ask(question, signal));
    await expect(channel.ask(question, signal)).rejects.toThrow(`the client already has ${MAX_OPEN_QUESTIONS_PER_CONNECTION} questions open`);
    expect(sent).toHaveLength(MAX_OPEN_QUESTIONS_PER_CONNECTION);
    expect(sent[0]).toMatchObject({ method: "toolpool/question", params: { requestId: "r", server: "s", tool: "t", kind: "elicitation", method: "elicitation/create", params: { message: "Sure?" } } });
    const ids = sent.map((message) => (message.params as { questionId: string }).questionId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(() => answerQuestion({ questionId: ids[0]!, result: { text: "x".repeat(300_000) } }, { connection })).toThrow(RpcError);
    expect(answerQuestion({ questionId: ids[0]!, result: { action: "decline" } }, { connection })).toEqual({ answered: true });
    expect(await open[0]).toEqual({ action: "decline" });
    expect(connection.questions.size).toBe(MAX_OPEN_QUESTIONS_PER_CONNECTION - 1);
  });

  test("the call's end withdraws its question (notified), and a late answer finds nothing", async () => {
    const { connection, sent } = fakeConnection();
    const controller = new AbortController();
    const asked = questionChannel(connection, 1, { "toolpool/answers": ["elicitation"] })!.ask(question, controller.signal);
    const questionId = (sent[0]!.params as { questionId: string }).questionId;
    controller.abort(new Error("The call's deadline passed"));
    await expect(asked).rejects.toThrow("The call's deadline passed");
    expect(sent[1]).toEqual({ jsonrpc: "2.0", method: "toolpool/questionWithdrawn", params: { questionId, reason: "The call's deadline passed" } });
    expect(() => answerQuestion({ questionId, result: {} }, { connection })).toThrow("no open question");
  });

  test("another connection cannot answer: ids are looked up only among the connection's own questions", () => {
    const owner = fakeConnection();
    const other = fakeConnection();
    void questionChannel(owner.connection, 1, { "toolpool/answers": ["elicitation"] })!.ask(question, new AbortController().signal);
    const questionId = (owner.sent[0]!.params as { questionId: string }).questionId;
    expect(() => answerQuestion({ questionId, result: { action: "accept", content: {} } }, { connection: other.connection })).toThrow("no open question");
    expect(owner.connection.questions.size).toBe(1);
  });
});
