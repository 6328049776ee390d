/**
 * TodoWrite: a per-session task list the model rewrites as it works. The list lives in the
 * session's `sessionState` (one session never sees another's) and each call replaces it whole,
 * which keeps the tool idempotent: the result is exactly what was sent.
 */
import { z } from "zod";
import { buildTool, NO_PATHS } from "../tool/build-tool.ts";
import { textResult } from "../tool/result.ts";
import type { ToolContext } from "../tool/tool.ts";
import description from "./todo-write.txt" with { type: "text" };

/** Bounds a list that is re-sent on every call: enough for a real plan, not a dumping ground. */
export const MAX_TODOS = 100;
export const MAX_TODO_CHARS = 500;

/** The `sessionState` key the list is kept under. */
export const TODO_STATE_KEY = "TodoWrite.todos";

const todoSchema = () =>
  z.strictObject({
    content: z.string().trim().min(1, "must not be empty").max(MAX_TODO_CHARS).describe('What to do, in the imperative ("Run the tests").'),
    status: z.enum(["pending", "in_progress", "completed"]).describe("pending, in_progress (the step you are on) or completed."),
    activeForm: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(MAX_TODO_CHARS)
      .optional()
      .describe('The step as it is being done ("Running the tests"), shown while it is in progress.'),
  });

const inputSchema = () =>
  z.strictObject({
    todos: z.array(todoSchema()).max(MAX_TODOS).describe("The whole list, in order; it replaces the previous one."),
  });

export type Todo = z.output<ReturnType<typeof todoSchema>>;

/** The session's current list (empty when none was written). */
export function sessionTodos(state: ToolContext["sessionState"]): readonly Todo[] {
  const todos = state.get(TODO_STATE_KEY);
  return Array.isArray(todos) ? (todos as Todo[]) : [];
}

export const todoWriteTool = buildTool({
  name: "TodoWrite",
  description,
  searchHint: "task list plan track progress steps checklist",
  inputSchema,
  access: () => NO_PATHS,
  shouldDefer: true,
  // It writes only the session's own in-memory scratch, nothing the user owns: a read-only session
  // may still keep a plan.
  isReadOnly: true,
  async call({ todos }, { sessionState }) {
    const list = todos.map((todo) => ({ ...todo }));
    sessionState.set(TODO_STATE_KEY, list);
    const text = list.length === 0 ? "The task list is now empty." : formatTodos(list);
    return textResult(text, { todos: list });
  },
});

function formatTodos(todos: readonly Todo[]): string {
  const counts = { pending: 0, in_progress: 0, completed: 0 };
  for (const todo of todos) counts[todo.status]++;
  const lines = todos.map((todo, index) => {
    const mark = todo.status === "completed" ? "[x]" : todo.status === "in_progress" ? "[~]" : "[ ]";
    const active = todo.status === "in_progress" && todo.activeForm ? ` (${todo.activeForm})` : "";
    return `${index + 1}. ${mark} ${todo.content}${active}`;
  });
  const summary = `Task list updated: ${counts.completed} completed, ${counts.in_progress} in progress, ${counts.pending} pending.`;
  const note =
    counts.in_progress > 1
      ? `\nNote: ${counts.in_progress} items are in progress; keep one in progress at a time and finish it before starting the next.`
      : "";
  return [summary, ...lines].join("\n") + note;
}
