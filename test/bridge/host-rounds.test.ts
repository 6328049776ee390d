/** A 2026 host's rounds: a host that never comes back loses the call (cancelled); waiting calls are bounded. */
import { describe, expect, test } from "bun:test";
import { HostRounds, MAX_WAITING_CALLS, type RoundCall } from "../../src/bridge/host-rounds.ts";
import { waitUntil } from "./fixtures.ts";

/** A call that asks one question and returns the answer's text; records how it ended. */
function askingCall(ended: string[]): RoundCall {
  return async (name, _input, { signal, answers }) => {
    try {
      const answer = await answers.answer({ questionId: `q-${name}`, requestId: 1, server: "s", tool: name, kind: "elicitation", method: "elicitation/create", params: { message: "Sure?" } }, signal);
      ended.push(`${name}: answered`);
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    } catch (error) {
      ended.push(`${name}: ${(error as Error).message}`);
      throw error;
    }
  };
}

describe("HostRounds", () => {
  test("a host that does not come back within the wait: the call is cancelled and its state forgotten", async () => {
    const ended: string[] = [];
    const rounds = new HostRounds(askingCall(ended), 50);
    const first = await rounds.run({ name: "a", input: {}, kinds: ["elicitation"] });
    expect(first).toEqual({ kind: "input_required", inputRequests: { "q-a": { method: "elicitation/create", params: { message: "Sure?" } } }, requestState: expect.any(String) as unknown as string });
    await waitUntil(() => ended.length > 0, "the call to be cancelled");
    expect(ended).toEqual(["a: the host did not answer within 50 ms"]);
    expect(rounds.waiting).toBe(0);
    const late = await rounds.run({ name: "a", input: {}, kinds: ["elicitation"], requestState: (first as { requestState: string }).requestState, inputResponses: { "q-a": { action: "accept" } } });
    expect(late.kind).toBe("refused");
  });

  test(`at most ${MAX_WAITING_CALLS} calls wait for answers; answering one frees its place`, async () => {
    const ended: string[] = [];
    const rounds = new HostRounds(askingCall(ended));
    const states: string[] = [];
    for (let index = 0; index < MAX_WAITING_CALLS; index++) {
      const outcome = await rounds.run({ name: `c${index}`, input: {}, kinds: ["elicitation"] });
      states.push((outcome as { requestState: string }).requestState);
    }
    expect(await rounds.run({ name: "over", input: {}, kinds: ["elicitation"] })).toEqual({ kind: "refused", message: `Too many of this caller's calls are waiting for its answers (limit ${MAX_WAITING_CALLS}); answer or abandon one first` });
    const done = await rounds.run({ name: "c0", input: {}, kinds: ["elicitation"], requestState: states[0], inputResponses: { "q-c0": { action: "decline" } } });
    expect(done).toEqual({ kind: "complete", result: { content: [{ type: "text", text: '{"action":"decline"}' }] } });
    expect(rounds.waiting).toBe(MAX_WAITING_CALLS - 1);
    rounds.close();
    await waitUntil(() => ended.length === MAX_WAITING_CALLS, "every waiting call cancelled");
    expect(ended.filter((line) => line.endsWith("the bridge closed"))).toHaveLength(MAX_WAITING_CALLS - 1);
  });

  test(`hostile: ${3 * MAX_WAITING_CALLS} calls started at once still leave at most ${MAX_WAITING_CALLS} waiting; the others are refused when they ask, and cancelled`, async () => {
    const ended: string[] = [];
    const rounds = new HostRounds(askingCall(ended));
    const outcomes = await Promise.all(Array.from({ length: 3 * MAX_WAITING_CALLS }, (_, index) => rounds.run({ name: `c${index}`, input: {}, kinds: ["elicitation"] })));
    const kinds = outcomes.map((outcome) => outcome.kind);
    expect({ waiting: rounds.waiting, parked: kinds.filter((kind) => kind === "input_required").length, refused: kinds.filter((kind) => kind === "refused").length }).toEqual({
      waiting: MAX_WAITING_CALLS,
      parked: MAX_WAITING_CALLS,
      refused: 2 * MAX_WAITING_CALLS,
    });
    await waitUntil(() => ended.length === 2 * MAX_WAITING_CALLS, "the refused calls cancelled");
    rounds.close();
  });
});
