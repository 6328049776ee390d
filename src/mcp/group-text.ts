/**
 * What a server says of its groups (the grouping extension's `title` and `description`), made fit
 * to show the model: it is the server's text, untrusted like a tool description, and gets the same
 * treatment — control characters dropped, whitespace collapsed, and bounded — plus one more: it is
 * one line, so it cannot open a line of its own in a listing or an announcement (a forged header or
 * tag line). The daemon writes it under its own `_meta["toolpool/groupInfo"]` on each tool of the
 * group (the same objects for every member, so memory holds each text once), overwriting whatever a
 * server put there; pool-tool.ts reads it back into `mcpInfo.groupInfo`.
 */
import { cutLine, foldLine } from "../tool/one-line.ts";
import type { GroupText } from "../tool/tool.ts";

/** The daemon's own key: each of the tool's groups that has a title or description. Never taken from a server. */
export const POOL_GROUP_INFO_META_KEY = "toolpool/groupInfo";
/** A group title is a label: longer ones are cut. */
export const MAX_GROUP_TITLE_CHARS = 64;
/** A group description is kept to here; a listing shows its first sentence (at most 160 characters). */
export const MAX_GROUP_DESCRIPTION_CHARS = 300;

/** One line of at most `max` characters (an ellipsis marks a cut), or undefined for nothing usable. */
export function oneLine(raw: unknown, max: number): string | undefined {
  if (typeof raw !== "string") return undefined;
  // Read no more than a bounded opening: a megabyte of description costs no more than this.
  const line = foldLine(raw.slice(0, max * 4)).trim();
  return line.length === 0 ? undefined : cutLine(line, max);
}

/** A listed group's title and description, checked; undefined when it has neither. */
export function groupTextOf(raw: { title?: unknown; description?: unknown }): GroupText | undefined {
  const title = oneLine(raw.title, MAX_GROUP_TITLE_CHARS);
  const description = oneLine(raw.description, MAX_GROUP_DESCRIPTION_CHARS);
  if (title === undefined && description === undefined) return undefined;
  return { ...(title !== undefined && { title }), ...(description !== undefined && { description }) };
}

/** The group texts the daemon wrote on a tool, for the groups it is in only, checked again (a cache file is read back). */
export function poolGroupInfoOf(meta: unknown, groups: readonly string[]): Record<string, GroupText> | undefined {
  const info = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>)[POOL_GROUP_INFO_META_KEY] : undefined;
  if (typeof info !== "object" || info === null || Array.isArray(info)) return undefined;
  // Entries, not assignments: a group may be named `__proto__` (the name rule allows it).
  const found: [string, GroupText][] = [];
  for (const group of groups) {
    if (!Object.hasOwn(info, group)) continue;
    const text = groupTextOf((info as Record<string, { title?: unknown; description?: unknown }>)[group] ?? {});
    if (text !== undefined) found.push([group, text]);
  }
  return found.length > 0 ? Object.fromEntries(found) : undefined;
}
