/**
 * Telling the model which deferred tools exist (SPEC §8), by name only (seed 003: hints showed no
 * benefit). Two styles, chosen per session by a runtime flag:
 *
 * `list` — every request carries the full list, inserted by the client as a meta user message and
 * not kept in the transcript (it changes whenever the pool does, so it must not sit in the cached
 * prefix):
 *
 *   <available-deferred-tools>
 *   mcp__github__create_issue
 *   …
 *   </available-deferred-tools>
 *
 * `delta` — only what changed since the deltas already in the transcript, appended by the client
 * to the transcript and kept there (replaying them rebuilds what the model was told):
 *
 *   <deferred-tools-delta>
 *   Deferred tools now available (load them with ToolSearch):
 *   mcp__github__create_issue
 *   Deferred tools no longer available:
 *   mcp__jira__create_ticket
 *   Tools whose definitions changed since you first saw them (calls are checked against the new definition; a rejected call's error says what it expects now):
 *   Read #3fa2c1d0e9ab
 *   </deferred-tools-delta>
 *
 * `servers` — like `list`, sent with every request and not kept, but one line per MCP server
 * instead of one per tool (see server-summaries.ts), plus the deferred built-ins by name:
 *
 *   <available-deferred-servers>
 *   Deferred MCP servers. Their tools load through ToolSearch: …
 *   github (26 tools): repository, pull, request, issue, branch, …
 *   Deferred built-in tools: CronCreate, CronDelete
 *   </available-deferred-servers>
 *
 * A section appears only when it has names. The `#…` after a changed tool is a fingerprint of its new
 * definition, so each change is announced once.
 */
import { nameLines, taggedBlocks } from "./discovered-line.ts";
import { isValidToolName, sanitizeNamePart } from "../tool/names.ts";
import { cutLine, foldLine } from "../tool/one-line.ts";
import { DELTA_TAG, LIST_TAG, SERVERS_TAG } from "./marker-tags.ts";
import type { ServerSummary } from "./server-summaries.ts";

export type AnnouncementStyle = "list" | "delta" | "servers";


const ADDED_HEADER = "Deferred tools now available (load them with ToolSearch):";
const REMOVED_HEADER = "Deferred tools no longer available:";
const CHANGED_HEADER =
  "Tools whose definitions changed since you first saw them (calls are checked against the new definition; a rejected call's error says what it expects now):";

export interface Announcement {
  style: AnnouncementStyle;
  /** The text block to insert: for `list` before this request only, for `delta` into the transcript. */
  text: string;
  /** Whether the client keeps it in the transcript (delta) or sends it with this request only (list). */
  persist: boolean;
  added: string[];
  removed: string[];
  /** Changed tools with the fingerprint of their current definition. */
  changed: { name: string; fingerprint: string }[];
}

export function renderList(deferredNames: Iterable<string>): Announcement | null {
  const names = [...new Set(deferredNames)].sort();
  if (names.length === 0) return null;
  return {
    style: "list",
    text: [`<${LIST_TAG}>`, ...names, `</${LIST_TAG}>`].join("\n"),
    persist: false,
    added: names,
    removed: [],
    changed: [],
  };
}

export const SERVERS_HEADER =
  'Deferred MCP servers. Their tools load through ToolSearch: name the server in your query ("github create issue"), or query "mcp__<server>" to list its tools.';
const BUILTINS_HEADER = "Deferred built-in tools:";
const PENDING_HEADER = "Still connecting (search again shortly):";

/** Said once, when some server has groups (the MCP grouping extension). */
export const GROUPS_LINE = 'A server\'s group loads at once with "select:mcp__<server>/<group>".';
/** Groups named on a server's line; a server with more says how many more. */
const MAX_GROUPS_SHOWN = 8;

/** A group title on a server's line is cut here: a label, not a description (the listing has those). */
const MAX_GROUP_TITLE_SHOWN = 40;

function groupsPart(groups: readonly string[] | undefined, titles: ReadonlyMap<string, string> | undefined): string {
  if (groups === undefined || groups.length === 0) return "";
  const shown = groups
    .slice(0, MAX_GROUPS_SHOWN)
    .map((group) => {
      const title = shownTitle(group, titles?.get(group));
      return title === undefined ? group : `${group} (${title})`;
    })
    .join(", ");
  return `; groups: ${shown}${groups.length > MAX_GROUPS_SHOWN ? `, +${groups.length - MAX_GROUPS_SHOWN} more` : ""}`;
}

/**
 * A group's title as a server's line shows it: the server's text on one line, without brackets that
 * could read as the announcement's own markup, cut to MAX_GROUP_TITLE_SHOWN; nothing when it only
 * repeats the name ("issues" / "Issues").
 */
function shownTitle(group: string, title: string | undefined): string | undefined {
  if (title === undefined) return undefined;
  const line = foldLine(title.replace(/[<>]/g, " ")).trim();
  const plain = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
  if (line.length === 0 || plain(line) === plain(group)) return undefined;
  return cutLine(line, MAX_GROUP_TITLE_SHOWN);
}

export interface ServersInput {
  servers: readonly ServerSummary[];
  /** Deferred tools that belong to no MCP server, by name. */
  builtins: Iterable<string>;
  pending?: readonly string[];
}

export function renderServers({ servers, builtins, pending = [] }: ServersInput): Announcement | null {
  const builtinNames = [...new Set(builtins)].sort();
  if (servers.length === 0 && builtinNames.length === 0 && pending.length === 0) return null;
  const lines = [`<${SERVERS_TAG}>`];
  if (servers.length > 0) {
    lines.push(SERVERS_HEADER);
    for (const server of servers) {
      const count = `${server.toolCount} tool${server.toolCount === 1 ? "" : "s"}${groupsPart(server.groups, server.groupTitles)}`;
      // The name as tool names spell it, so "mcp__<name>" works as written.
      const name = sanitizeNamePart(server.name);
      lines.push(server.description.length > 0 ? `${name} (${count}): ${server.description}` : `${name} (${count})`);
    }
  }
  if (servers.some((server) => (server.groups?.length ?? 0) > 0)) lines.push(GROUPS_LINE);
  if (builtinNames.length > 0) lines.push(`${BUILTINS_HEADER} ${builtinNames.join(", ")}`);
  if (pending.length > 0) lines.push(`${PENDING_HEADER} ${[...pending].sort().join(", ")}`);
  lines.push(`</${SERVERS_TAG}>`);
  return {
    style: "servers",
    text: lines.join("\n"),
    persist: false,
    added: [...servers.map((server) => server.name), ...builtinNames],
    removed: [],
    changed: [],
  };
}

/** Names the model was told about, rebuilt from the deltas in a transcript. */
export interface AnnouncedState {
  announced: Set<string>;
  /** name → fingerprint of the last announced change. */
  changes: Map<string, string>;
}

export function emptyAnnouncedState(): AnnouncedState {
  return { announced: new Set(), changes: new Map() };
}

/** Applies the delta blocks of one text, in order. */
export function replayDeltas(text: string, state: AnnouncedState): void {
  for (const body of taggedBlocks(text, DELTA_TAG)) {
    const sections = splitSections(body);
    for (const name of sections.added) state.announced.add(name);
    for (const name of sections.removed) state.announced.delete(name);
    for (const { name, fingerprint } of sections.changed) state.changes.set(name, fingerprint);
  }
}

export interface DeltaInput {
  state: AnnouncedState;
  /** Names deferred now (empty when this request defers nothing). */
  deferred: ReadonlySet<string>;
  /** Every tool name in the pool now: an announced tool still here but no longer deferred became
   * core — it is loaded directly now, so calling it "no longer available" would be a lie. */
  inPool: ReadonlySet<string>;
  /** Tools sent with pinned bytes whose current definition differs: name → fingerprint. */
  changed: ReadonlyMap<string, string>;
}

export function computeDelta({ state, deferred, inPool, changed }: DeltaInput): Announcement | null {
  const added = [...deferred].filter((name) => !state.announced.has(name)).sort();
  const removed = [...state.announced].filter((name) => !deferred.has(name) && !inPool.has(name)).sort();
  const changes = [...changed]
    .filter(([name, fingerprint]) => state.changes.get(name) !== fingerprint)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, fingerprint]) => ({ name, fingerprint }));
  if (added.length === 0 && removed.length === 0 && changes.length === 0) return null;
  const lines = [`<${DELTA_TAG}>`];
  if (added.length > 0) lines.push(ADDED_HEADER, ...added);
  if (removed.length > 0) lines.push(REMOVED_HEADER, ...removed);
  if (changes.length > 0) lines.push(CHANGED_HEADER, ...changes.map(({ name, fingerprint }) => `${name} #${fingerprint}`));
  lines.push(`</${DELTA_TAG}>`);
  return { style: "delta", text: lines.join("\n"), persist: true, added, removed, changed: changes };
}

interface DeltaSections {
  added: string[];
  removed: string[];
  changed: { name: string; fingerprint: string }[];
}

function splitSections(body: string): DeltaSections {
  const sections: DeltaSections = { added: [], removed: [], changed: [] };
  let current: keyof DeltaSections | undefined;
  for (const raw of body.split("\n")) {
    const line = raw.trim();
    if (line === ADDED_HEADER) current = "added";
    else if (line === REMOVED_HEADER) current = "removed";
    else if (line === CHANGED_HEADER) current = "changed";
    else if (current === "changed") {
      const match = /^(\S+) #([0-9a-f]+)$/.exec(line);
      if (match && isValidToolName(match[1]!)) sections.changed.push({ name: match[1]!, fingerprint: match[2]! });
    } else if (current !== undefined) sections[current].push(...nameLines(line));
  }
  return sections;
}
