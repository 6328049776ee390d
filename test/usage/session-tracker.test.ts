import { describe, expect, test } from "bun:test";
import { CONVERSION_WINDOW_CALLS, SessionTracker } from "../../src/usage/session-tracker.ts";
import type { CallRecord } from "../../src/usage/usage-recorder.ts";
import { MAX_QUERY_CHARS } from "../../src/usage/usage-schema.ts";

function tracker() {
  let key = 0;
  return new SessionTracker({ now: () => 1_000, newKey: () => `k${++key}`, isMeta: (tool) => tool === "ToolSearch" });
}

const session = { sessionId: "s1", workspace: "/w" };
const call = (tool: string, extra: Partial<CallRecord> = {}): CallRecord => ({
  ...session,
  tool,
  durationMs: 5,
  isError: false,
  timedOut: false,
  truncated: false,
  known: true,
  ...extra,
});
const types = (events: readonly { type: string }[]) => events.map((event) => event.type);

describe("SessionTracker", () => {
  test("a keyword search converts when a result is called within the window, once", () => {
    const subject = tracker();
    subject.search({ ...session, kind: "keyword", query: "send mail", results: ["Mail", "Chat"], selectMisses: 0, didYouMean: false });
    expect(types(subject.call(call("Read")))).toEqual(["call", "searchCall", "use"]);
    const converting = subject.call(call("Chat"));
    expect(converting.filter((event) => event.type === "conversion")).toEqual([{ type: "conversion", key: "k1", tool: "Chat" }]);
    // Converted: a later call of the other result does not count it twice.
    expect(types(subject.call(call("Mail")))).toEqual(["call", "use"]);
  });

  test(`after ${CONVERSION_WINDOW_CALLS} other calls the search no longer converts; meta-tool calls do not use up the window`, () => {
    const subject = tracker();
    subject.search({ ...session, kind: "keyword", query: "send mail", results: ["Mail"], selectMisses: 0, didYouMean: false });
    subject.call(call("ToolSearch"));
    for (let i = 0; i < CONVERSION_WINDOW_CALLS; i++) subject.call(call(`Other${i}`));
    expect(types(subject.call(call("Mail")))).toEqual(["call", "use"]);
  });

  test("another session's call converts nothing; select and discover searches never convert", () => {
    const subject = tracker();
    subject.search({ ...session, kind: "keyword", query: "mail", results: ["Mail"], selectMisses: 0, didYouMean: false });
    subject.search({ ...session, kind: "select", query: "select:Chat", results: ["Chat"], selectMisses: 0, didYouMean: false });
    expect(types(subject.call({ ...call("Mail"), sessionId: "s2" }))).toEqual(["call", "use"]);
    expect(types(subject.call(call("Chat")))).toEqual(["call", "searchCall", "use"]);
  });

  test("a failed or unknown call is recorded but teaches nothing (no use, no follows, no search terms)", () => {
    const subject = tracker();
    subject.search({ ...session, kind: "keyword", query: "mail", results: ["Mail"], selectMisses: 0, didYouMean: false });
    expect(types(subject.call(call("Mail", { isError: true })))).toEqual(["call", "conversion"]);
    expect(types(subject.call(call("Nope", { known: false })))).toEqual(["call"]);
    expect(subject.lastTool("s1")).toBeNull();
  });

  test("what follows what, and what is called together", () => {
    const subject = tracker();
    subject.call(call("A"));
    subject.call(call("B"));
    const third = subject.call(call("A"));
    expect(third.find((event) => event.type === "use")).toEqual({ type: "use", at: 1_000, workspace: "/w", tool: "A", previous: "B", together: [] });
    const fourth = subject.call(call("C"));
    expect(fourth.find((event) => event.type === "use")).toEqual({ type: "use", at: 1_000, workspace: "/w", tool: "C", previous: "A", together: ["A", "B"] });
    expect(subject.lastTool("s1")).toBe("C");
  });

  test("a prefetch suggestion called later is a hit, once", () => {
    const subject = tracker();
    const suggested = subject.prefetch({ ...session, query: "tell the team in chat", suggestions: ["Mail", "Chat"] });
    expect(suggested.map((event) => (event.type === "prefetch" ? event.tool : ""))).toEqual(["Mail", "Chat"]);
    expect(subject.call(call("Chat")).filter((event) => event.type === "prefetchHit" || event.type === "searchCall")).toEqual([
      { type: "prefetchHit", key: "k2" },
      { type: "searchCall", at: 1_000, workspace: "/w", tool: "Chat", terms: ["tell", "team", "chat"] },
    ]);
    expect(types(subject.call(call("Chat")))).toEqual(["call", "use"]);
  });

  test("query text is cut; the first request of a session is claimed once", () => {
    const subject = tracker();
    const [event] = subject.search({ ...session, kind: "keyword", query: "x".repeat(5_000), results: [], selectMisses: 0, didYouMean: false });
    expect(event?.type === "search" && event.query.length).toBe(MAX_QUERY_CHARS);
    expect([subject.firstRequest("s1"), subject.firstRequest("s1"), subject.firstRequest("s2")]).toEqual([true, false, true]);
  });
});
