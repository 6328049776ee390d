/**
 * What a server says of its groups (the grouping extension's `title` and `description`), made fit
 * to show the model: it is the server's text, untrusted like a tool description, and gets the same
 * treatment — control characters dropped, whitespace collapsed, and bounded — plus one more: it is
 * one line, so it cannot open a line of its own in a listing or an announcement (a forged header or
 * tag line). The daemon writes it under its own `_meta["toolpool/groupInfo"]` of the first tool of
 * the listing in that group only (server-groups.ts), overwriting whatever a server put there, so a
 * listing and its catalog cache hold each text once; pool-tool.ts reads the listing's texts back
 * (listingGroupTexts) into every member's `mcpInfo.groupInfo`, the same objects for all.
 */
import { cutLine, foldLine } from "../tool/one-line.ts";
import { dropHidden } from "./catalog-text.ts";
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
  // Hidden characters are dropped (catalog-text.ts) before the fold: a zero-width space inside a word must not split it.
  const line = foldLine(dropHidden(raw, max * 4)).trim();
  return line.length === 0 ? undefined : cutLine(line, max);
}

/** A listed group's title and description, checked; undefined when it has neither. */
export function groupTextOf(raw: { title?: unknown; description?: unknown }): GroupText | undefined {
  const title = oneLine(raw.title, MAX_GROUP_TITLE_CHARS);
  const description = oneLine(raw.description, MAX_GROUP_DESCRIPTION_CHARS);
  if (title === undefined && description === undefined) return undefined;
  return { ...(title !== undefined && { title }), ...(description !== undefined && { description }) };
}

/**
 * The group texts the daemon wrote into a server's listing, each group's checked once (the first
 * found). A listing once carried every text on every member: 5,000 tools in 16 groups each made
 * 80,000 copies, checked one by one (~0.9 s on the daemon's thread per listing), a catalog cache of
 * 43 MB, and a re-listing that compared and wrote them all again.
 */
export function listingGroupTexts(definitions: readonly { _meta?: unknown }[]): Map<string, GroupText> {
  const texts = new Map<string, GroupText>();
  for (const definition of definitions) {
    const meta = definition._meta;
    const info = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>)[POOL_GROUP_INFO_META_KEY] : undefined;
    if (typeof info !== "object" || info === null || Array.isArray(info)) continue;
    // Own keys only: a group may be named `__proto__` (the name rule allows it), an own entry here.
    for (const group of Object.keys(info)) {
      if (texts.has(group)) continue;
      const text = groupTextOf((info as Record<string, { title?: unknown; description?: unknown }>)[group] ?? {});
      if (text !== undefined) texts.set(group, text);
    }
  }
  return texts;
}

/**
 * A tool's groups' texts out of its listing's, or undefined when none of its groups has any. Tools
 * of the same groups share one record through `shared` (keyed by the names; a name holds no comma).
 */
export function groupInfoFor(groups: readonly string[], texts: ReadonlyMap<string, GroupText>, shared: Map<string, Record<string, GroupText> | undefined> = new Map()): Record<string, GroupText> | undefined {
  if (groups.length === 0 || texts.size === 0) return undefined;
  const key = groups.join(",");
  if (shared.has(key)) return shared.get(key);
  // Entries, not assignments: `__proto__` stays an own entry.
  const found = groups.flatMap((group) => (texts.has(group) ? [[group, texts.get(group)!] as const] : []));
  const info = found.length > 0 ? Object.fromEntries(found) : undefined;
  shared.set(key, info);
  return info;
}
