/**
 * A 2025 server's question goes to the one call in flight on its connection, or to several when they
 * all have the same asker; never guessed among callers.
 */
import { describe, expect, test } from "bun:test";
import { MAX_QUESTIONS_PER_CALL, QuestionRouter, withRefusals } from "../../src/mcp/question-routing.ts";
import { QuestionRefused, type QuestionChannel, type ServerQuestion } from "../../src/protocol/server-question.ts";

function channel(kinds: ("elicitation" | "sampling")[], answer: (question: ServerQuestion) => Record<string, unknown> = () => ({ action: "accept", content: {} }), owner?: string) {
  const asked: ServerQuestion[] = [];
  const questions: QuestionChannel = {
    kinds: new Set(kinds),
    ...(owner !== undefined && { owner }),
    ask: async (question) => {
      asked.push(question);
      return answer(question);
    },
  };
  return { questions, asked };
}

describe("QuestionRouter", () => {
  test("one call in flight: its caller is asked, with the server and tool named and the server's _meta dropped", async () => {
    const router = new QuestionRouter("everything");
    const { questions, asked } = channel(["elicitation"]);
    const call = router.begin("confirm", questions, new AbortController().signal);
    expect(await router.answer("elicitation/create", { message: "Sure?", requestedSchema: { type: "object", properties: {} }, _meta: { x: 1 } })).toEqual({ action: "accept", content: {} });
    expect(asked).toEqual([{ kind: "elicitation", method: "elicitation/create", params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } }, server: "everything", tool: "confirm" }]);
    expect(call.refusals).toEqual([]);
    router.end(call);
  });

  test("no call, or two calls of different callers in flight: refused, saying why, and nobody is asked", async () => {
    const router = new QuestionRouter("s");
    await expect(router.answer("elicitation/create", { message: "Sure?" })).rejects.toThrow("arrived while no call of this server was in flight");
    const first = channel(["elicitation"], undefined, "conn-1/session-a");
    const second = channel(["elicitation"], undefined, "conn-2/session-b");
    const a = router.begin("a", first.questions, new AbortController().signal);
    const b = router.begin("b", second.questions, new AbortController().signal);
    const refused = await router.answer("elicitation/create", { message: "Sure?" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QuestionRefused);
    expect((refused as Error).message).toBe('elicitation/create ("Sure?") arrived while 2 calls of this server were in flight for 2 different callers, and a request over this transport does not say which call it belongs to; toolpool does not guess whom to ask (set maxConcurrent: 1 on a server that asks questions)');
    expect([a.refusals, b.refusals]).toEqual([[], []]);
    expect(first.asked).toEqual([]);
    expect(second.asked).toEqual([]);
    router.end(a);
    expect(await router.answer("elicitation/create", { message: "Now?" })).toEqual({ action: "accept", content: {} });
    expect(second.asked.map((question) => question.tool)).toEqual(["b"]);
    router.end(b);
  });

  test("two calls of the same caller (one connection's one session) in flight: the question goes to that caller, naming both tools", async () => {
    const router = new QuestionRouter("s");
    const first = channel(["elicitation"], () => ({ action: "accept", content: { sure: true } }), "conn-1/session-a");
    const second = channel(["elicitation"], undefined, "conn-1/session-a");
    const a = router.begin("delete_file", first.questions, new AbortController().signal);
    const b = router.begin("move_file", second.questions, new AbortController().signal);
    expect(await router.answer("elicitation/create", { message: "Sure?" })).toEqual({ action: "accept", content: { sure: true } });
    expect(first.asked).toEqual([{ kind: "elicitation", method: "elicitation/create", params: { message: "Sure?" }, server: "s", tool: "one of delete_file, move_file" }]);
    expect(second.asked).toEqual([]);
    // The oldest call ended: the next question goes to the one left, by its own channel.
    router.end(a);
    expect(await router.answer("elicitation/create", { message: "Again?" })).toEqual({ action: "accept", content: {} });
    expect(second.asked.map((question) => question.tool)).toEqual(["move_file"]);
    router.end(b);
  });

  test("two calls of one asker, only the newer declaring the kind asked: the question goes to that one, not refused by the older", async () => {
    const router = new QuestionRouter("s");
    const older = channel(["sampling"], undefined, "conn-1/session-a");
    const newer = channel(["elicitation"], () => ({ action: "accept", content: { ok: true } }), "conn-1/session-a");
    const a = router.begin("a", older.questions, new AbortController().signal);
    const b = router.begin("b", newer.questions, new AbortController().signal);
    expect(await router.answer("elicitation/create", { message: "Sure?" })).toEqual({ action: "accept", content: { ok: true } });
    expect({ older: older.asked.length, newer: newer.asked.map((question) => question.tool), refusals: [a.refusals, b.refusals] }).toEqual({ older: 0, newer: ["one of a, b"], refusals: [[], []] });
    router.end(a);
    router.end(b);
  });

  test("two calls in flight, one from a caller that answers nothing: refused, saying so", async () => {
    const router = new QuestionRouter("s");
    const asking = channel(["elicitation"], undefined, "conn-1/session-a");
    const a = router.begin("a", asking.questions, new AbortController().signal);
    const b = router.begin("b", undefined, new AbortController().signal);
    await expect(router.answer("elicitation/create", { message: "Sure?" })).rejects.toThrow("arrived while 2 calls of this server were in flight and 1 of them came from a caller that answers no questions");
    expect(asking.asked).toEqual([]);
    router.end(a);
    router.end(b);
  });

  test("a kind the caller did not declare, an unknown method, a task-augmented request, an oversized one: refused and recorded on the call", async () => {
    const router = new QuestionRouter("s");
    const { questions, asked } = channel(["sampling"]);
    const call = router.begin("t", questions, new AbortController().signal);
    await expect(router.answer("elicitation/create", { message: "Name?" })).rejects.toThrow("did not declare the elicitation capability");
    await expect(router.answer("roots/list", {})).rejects.toThrow("which toolpool does not relay");
    await expect(router.answer("sampling/createMessage", { messages: [], maxTokens: 1, task: { ttl: 1 } })).rejects.toThrow("as a task (the tasks extension)");
    await expect(router.answer("sampling/createMessage", { messages: [{ role: "user", content: { type: "text", text: "x".repeat(70_000) } }], maxTokens: 1 })).rejects.toThrow("over the 65536-byte limit");
    expect(asked).toEqual([]);
    expect(call.refusals).toHaveLength(4);
    const result = withRefusals({ content: [{ type: "text", text: "server said no" }] }, call);
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(2);
    expect((result.content[0] as { text: string }).text).toStartWith('toolpool: the server asked elicitation/create ("Name?"), but the client that made this call did not declare');
  });

  test("hostile: a 2025 server flooding one call with questions is put at most 128 to its caller, and the result keeps 4 refusals' text, counting the rest", async () => {
    const router = new QuestionRouter("s");
    const silent = router.begin("flood", undefined, new AbortController().signal);
    const refused = await Promise.all(Array.from({ length: 10_000 }, (_, index) => router.answer("elicitation/create", { message: `Q${index}` }).then(() => "answered", (error: Error) => error.constructor.name)));
    expect(new Set(refused)).toEqual(new Set(["QuestionRefused"]));
    expect(silent.refusals).toHaveLength(4);
    const result = withRefusals({ content: [{ type: "text", text: "server said no" }] }, silent);
    const lead = (result.content[0] as { text: string }).text;
    expect(lead.length).toBeLessThan(2_000);
    expect(lead).toEndWith("; and 9996 more of its questions were refused.");
    router.end(silent);

    const answering = channel(["elicitation"]);
    const asked = router.begin("nag", answering.questions, new AbortController().signal);
    for (let index = 0; index < MAX_QUESTIONS_PER_CALL; index++) expect(await router.answer("elicitation/create", { message: `Q${index}` })).toEqual({ action: "accept", content: {} });
    await expect(router.answer("elicitation/create", { message: "once more" })).rejects.toThrow("toolpool relays at most 128 questions per call");
    expect({ asked: answering.asked.length, refusals: asked.refusals }).toEqual({ asked: 128, refusals: ["the server asked more than 128 questions in this call, and toolpool relays no more than that"] });
    router.end(asked);

    // Two calls of one asker: the question goes to one of them by a copy naming both tools, and the count still holds.
    const shared = channel(["elicitation"], undefined, "conn-1/session-a");
    const first = router.begin("a", shared.questions, new AbortController().signal);
    const second = router.begin("b", shared.questions, new AbortController().signal);
    const outcomes = [];
    for (let index = 0; index < 200; index++) outcomes.push(await router.answer("elicitation/create", { message: `Q${index}` }).then(() => "asked", () => "refused"));
    expect({ asked: shared.asked.length, refused: outcomes.filter((outcome) => outcome === "refused").length }).toEqual({ asked: 128, refused: 72 });
    router.end(first);
    router.end(second);
  });
});
