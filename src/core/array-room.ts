/**
 * How many more tools a session's ToolSearch may load: the one home of that count. Native delivery
 * loads a found tool into the next request's `tools[]` (a `defer_loading` entry, by the
 * `tool_reference` the answer sends); mid-conversation with inline tools adds it by value beside the
 * fixed array, where it stays for the rest of the conversation. Either way the provider counts it
 * against its hard limit on tools (the config's `maxToolsInArray`, e.g. 128 or 512), which the
 * assembly never crosses (assembly/array-guard.ts): a tool loaded past it would be cut from the next
 * request with a warning in the log only, while the answer had told the model it was loaded.
 *
 * So an answer loads only as many as the array can still take — the limit, less what the last
 * request's array held (tools[] and, mid-conversation, the tools added by value), less what this
 * session's answers loaded since — in the order found; the rest are named `not_addable`, never "not
 * found" and never dropped unsaid. A tool the array already holds costs no room. Mid-conversation
 * without inline tools adds no entry by loading (its fixed array holds every tool it can load): a
 * tool its pinned array left out cannot be added at all, any other can (before the array is pinned,
 * any). Before the first request the array is taken to hold the session's core tools and ToolSearch.
 */
import type { ArrayRoom } from "../builtin/tool-search-mid.ts";
import { TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import type { Session } from "../session/session.ts";

export interface ArrayRoomInput {
  session: Session;
  /** The config's `maxToolsInArray`. */
  limit: number;
  /** mid-conversation or native: the deliveries whose answers load into the array. */
  delivery: "native" | "mid-conversation";
  /** The session's core tools now (before its first request, what its array is taken to hold). */
  coreNames: () => readonly string[];
}

/** Which of `names` (in order) the session's array can still take, and why each other one cannot. */
export function arrayRoom(input: ArrayRoomInput, names: readonly string[]): ArrayRoom {
  const { session, limit } = input;
  const pinned = session.fixedTools.pinned;
  const inline = session.settings.inlineTools === true;
  const held = session.toolsArray.held ?? new Set([...input.coreNames().slice(0, Math.max(0, limit - 1)), TOOL_SEARCH_TOOL_NAME]);
  const since = [...session.toolsArray.added].filter((name) => !held.has(name)).length;
  let room = Math.max(0, limit - held.size - since);
  const answer: ArrayRoom = { addable: [], full: [], fixedWithout: [], limit, room };
  // Without inline tools mid-conversation loads only what its fixed array holds: a load adds no entry.
  const byReference = input.delivery === "mid-conversation" && !inline;
  for (const name of names) {
    if (byReference) {
      if (pinned === undefined || pinned.core.includes(name) || pinned.deferred.includes(name)) answer.addable.push(name);
      else answer.fixedWithout.push(name);
    } else if (held.has(name) || session.toolsArray.added.has(name)) answer.addable.push(name);
    else if (room > 0) {
      answer.addable.push(name);
      room--;
    } else answer.full.push(name);
  }
  return answer;
}

/** A request was assembled: what its array holds now, and nothing loaded since. */
export function rememberArray(session: Session, held: ReadonlySet<string>): void {
  session.toolsArray.held = held;
  session.toolsArray.added.clear();
}

/** An answer loaded these: they take room until the next request shows them in the array. */
export function loadedIntoArray(session: Session, names: readonly string[]): void {
  for (const name of names) session.toolsArray.added.add(name);
}
