/** TodoWrite: a per-session list that each call replaces, kept in the session's sessionState. */
import { describe, expect, test } from "bun:test";
import { MAX_TODOS, sessionTodos, todoWriteTool } from "../../src/builtin/todo-write.ts";
import { makeWorkspace } from "./fixture.ts";

const tools = [todoWriteTool];

describe("TodoWrite", () => {
  test("writes the list, shows it, and keeps it in the session's state", async () => {
    using workspace = makeWorkspace();
    const sessionState = new Map<string, unknown>();
    const todos = [
      { content: "Read the failing test", status: "completed" },
      { content: "Fix the parser", status: "in_progress", activeForm: "Fixing the parser" },
      { content: "Run the tests", status: "pending" },
    ];
    const result = await workspace.call("TodoWrite", { todos }, { tools, context: { sessionState } });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: [
            "Task list updated: 1 completed, 1 in progress, 1 pending.",
            "1. [x] Read the failing test",
            "2. [~] Fix the parser (Fixing the parser)",
            "3. [ ] Run the tests",
          ].join("\n"),
        },
      ],
      isError: false,
      structuredContent: { todos },
    });
    expect(sessionTodos(sessionState)).toEqual(todos as never);
  });

  test("each call replaces the whole list; an empty list clears it", async () => {
    using workspace = makeWorkspace();
    const sessionState = new Map<string, unknown>();
    await workspace.call("TodoWrite", { todos: [{ content: "a", status: "pending" }, { content: "b", status: "pending" }] }, { tools, context: { sessionState } });
    await workspace.call("TodoWrite", { todos: [{ content: "b", status: "completed" }] }, { tools, context: { sessionState } });
    expect(sessionTodos(sessionState)).toEqual([{ content: "b", status: "completed" }]);
    expect(await workspace.run("TodoWrite", { todos: [] }, { tools, context: { sessionState } })).toEqual({ text: "The task list is now empty.", isError: false });
    expect(sessionTodos(sessionState)).toEqual([]);
  });

  test("sessions do not share lists", async () => {
    using workspace = makeWorkspace();
    const first = new Map<string, unknown>();
    const second = new Map<string, unknown>();
    await workspace.call("TodoWrite", { todos: [{ content: "mine", status: "pending" }] }, { tools, context: { sessionState: first } });
    expect(sessionTodos(second)).toEqual([]);
    expect(sessionTodos(first)).toEqual([{ content: "mine", status: "pending" }]);
  });

  test("more than one item in progress is kept but pointed out", async () => {
    using workspace = makeWorkspace();
    const { text } = await workspace.run("TodoWrite", { todos: [{ content: "a", status: "in_progress" }, { content: "b", status: "in_progress" }] }, { tools });
    expect(text).toEndWith("Note: 2 items are in progress; keep one in progress at a time and finish it before starting the next.");
  });

  test("bad items are refused with the field named, and the previous list is kept", async () => {
    using workspace = makeWorkspace();
    const sessionState = new Map<string, unknown>([["TodoWrite.todos", [{ content: "keep", status: "pending" }]]]);
    const bad = await workspace.run("TodoWrite", { todos: [{ content: " ", status: "done" }] }, { tools, context: { sessionState } });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("- todos.0.content: must not be empty");
    expect(bad.text).toContain("- todos.0.status: ");
    const tooMany = Array.from({ length: MAX_TODOS + 1 }, (_, index) => ({ content: `t${index}`, status: "pending" }));
    expect((await workspace.run("TodoWrite", { todos: tooMany }, { tools, context: { sessionState } })).isError).toBe(true);
    expect(sessionTodos(sessionState)).toEqual([{ content: "keep", status: "pending" }]);
  });

  test("is allowed in a read-only session: it writes only the session's own scratch", async () => {
    using workspace = makeWorkspace();
    const result = await workspace.run("TodoWrite", { todos: [] }, { tools, permissions: { mode: "readOnly", allow: [], deny: [] } });
    expect(result.isError).toBe(false);
  });
});
