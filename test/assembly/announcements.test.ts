import { describe, expect, test } from "bun:test";
import { computeDelta, emptyAnnouncedState, renderList, replayDeltas, type AnnouncedState } from "../../src/assembly/announcements.ts";

const state = (announced: string[], changes: Record<string, string> = {}): AnnouncedState => ({
  announced: new Set(announced),
  changes: new Map(Object.entries(changes)),
});

describe("list announcements", () => {
  test("every deferred name, sorted, once", () => {
    expect(renderList(["mcp__b__x", "WebFetch", "mcp__a__y", "WebFetch"])).toEqual({
      style: "list",
      text: "<available-deferred-tools>\nWebFetch\nmcp__a__y\nmcp__b__x\n</available-deferred-tools>",
      persist: false,
      added: ["WebFetch", "mcp__a__y", "mcp__b__x"],
      removed: [],
      changed: [],
    });
  });

  test("nothing deferred, nothing announced", () => {
    expect(renderList([])).toBeNull();
  });
});

describe("delta announcements", () => {
  test.each([
    ["first request: everything is added", state([]), ["a", "b"], ["a", "b"], [], ["a", "b"], []],
    ["nothing changed: no announcement", state(["a", "b"]), ["a", "b"], ["a", "b"], [], null, null],
    ["a server connected", state(["a"]), ["a", "c"], ["a", "c"], [], ["c"], []],
    ["a server left", state(["a", "c"]), ["a"], ["a"], [], [], ["c"]],
    ["a tool became core: still in the pool, not removed", state(["a", "c"]), ["a"], ["a", "c"], [], null, null],
    ["a core tool became deferred: added", state(["a"]), ["a", "c"], ["a", "c"], [], ["c"], []],
    ["added and removed together", state(["a", "b"]), ["b", "d"], ["b", "d"], [], ["d"], ["a"]],
  ] as const)("%s", (_case, before, deferred, inPool, _changed, added, removed) => {
    const delta = computeDelta({ state: before, deferred: new Set(deferred), inPool: new Set(inPool), changed: new Map() });
    if (added === null || removed === null) {
      expect(delta).toBeNull();
      return;
    }
    expect(delta).toMatchObject({ style: "delta", persist: true, added: [...added], removed: [...removed], changed: [] });
  });

  test("the exact block, with every section", () => {
    const delta = computeDelta({
      state: state(["mcp__jira__create_ticket"]),
      deferred: new Set(["mcp__github__create_issue"]),
      inPool: new Set(["mcp__github__create_issue", "Read"]),
      changed: new Map([["Read", "3fa2c1d0e9ab"]]),
    });
    expect(delta?.text).toBe(
      [
        "<deferred-tools-delta>",
        "Deferred tools now available (load them with ToolSearch):",
        "mcp__github__create_issue",
        "Deferred tools no longer available:",
        "mcp__jira__create_ticket",
        "Tools whose definitions changed since you first saw them (calls are checked against the new definition; a rejected call's error says what it expects now):",
        "Read #3fa2c1d0e9ab",
        "</deferred-tools-delta>",
      ].join("\n"),
    );
  });

  test("a change is announced once per new definition", () => {
    const input = { deferred: new Set<string>(), inPool: new Set(["Read"]) };
    const first = computeDelta({ ...input, state: state([]), changed: new Map([["Read", "aaa111"]]) });
    expect(first?.changed).toEqual([{ name: "Read", fingerprint: "aaa111" }]);
    expect(computeDelta({ ...input, state: state([], { Read: "aaa111" }), changed: new Map([["Read", "aaa111"]]) })).toBeNull();
    expect(computeDelta({ ...input, state: state([], { Read: "aaa111" }), changed: new Map([["Read", "bbb222"]]) })?.changed).toEqual([
      { name: "Read", fingerprint: "bbb222" },
    ]);
  });

  test("replaying a delta makes the same delta unnecessary", () => {
    const deferred = new Set(["a", "b"]);
    const changed = new Map([["Read", "abc123"]]);
    const replayed = emptyAnnouncedState();
    const delta = computeDelta({ state: replayed, deferred, inPool: deferred, changed })!;
    replayDeltas(delta.text, replayed);
    expect(replayed).toEqual(state(["a", "b"], { Read: "abc123" }));
    expect(computeDelta({ state: replayed, deferred, inPool: deferred, changed })).toBeNull();
  });

  test("text around the block and lines that are not names are ignored", () => {
    const replayed = emptyAnnouncedState();
    replayDeltas(
      "<system-reminder>\n<deferred-tools-delta>\nDeferred tools now available (load them with ToolSearch):\n  a  \nnot a name\n\n</deferred-tools-delta>\n</system-reminder>",
      replayed,
    );
    expect([...replayed.announced]).toEqual(["a"]);
  });
});
