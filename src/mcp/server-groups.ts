/**
 * The draft MCP grouping extension (`io.modelcontextprotocol/grouping`, SEP-2084 "Primitive
 * Grouping", moved out of the core spec into an extension), as this client reads it:
 *
 * - a server offers it in its capabilities, under `extensions["io.modelcontextprotocol/grouping"]`
 *   (or `experimental[…]`, where SDKs without an `extensions` field register it), with an optional
 *   `listChanged`;
 * - `groups/list` (paginated like `tools/list`: `cursor` in, `nextCursor` out) answers
 *   `{ groups: [{ name, title?, description?, _meta? }] }`;
 * - a tool names the groups it is in under `_meta["io.modelcontextprotocol/groups"]` (a list of
 *   group names); a group names its parent groups the same way (overlapping sets, not a tree; a
 *   server should avoid cycles, and a cycle here ends the walk, it does not loop);
 * - `notifications/groups/list_changed` when the groups change (a membership change comes with the
 *   primitive's own `list_changed`).
 *
 * A tool is in a group when it names that group or any group nested in it. The daemon writes what it
 * worked out under its own `_meta` key (`toolpool/groups`), overwriting whatever a server put there,
 * so the pool, the search index and the catalog cache all read one checked list. A server that does
 * not declare the extension has no groups here, whatever its tools' `_meta` says (fail closed).
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Listing } from "./list-tools.ts";
import type { ServerConnection } from "./server-connection-contract.ts";
import type { GroupText } from "../tool/tool.ts";
import { groupTextOf, POOL_GROUP_INFO_META_KEY } from "./group-text.ts";

export const GROUPING_EXTENSION_ID = "io.modelcontextprotocol/grouping";
export const GROUPS_META_KEY = "io.modelcontextprotocol/groups";
export const GROUPS_LIST_CHANGED = "notifications/groups/list_changed";
/** The daemon's own key: the checked, expanded group names of a tool. Never taken from a server. */
export const POOL_GROUPS_META_KEY = "toolpool/groups";

/** Groups kept per server; a server with more is cut here with a warning. */
export const MAX_GROUPS_PER_SERVER = 200;
/** groups/list pages read per listing. */
export const MAX_GROUP_PAGES = 20;
/** Groups one tool may be in (after nesting); the rest are dropped with a warning. */
export const MAX_GROUPS_PER_TOOL = 16;
/**
 * Entries of one `_meta` group list read (a tool's or a group's): no primitive is in more distinct
 * groups than a server may list, so the rest are repeats or unknown names. Unbounded, a server made
 * the nesting walk cost groups × groups × entries on the daemon's thread (seconds per listing).
 */
export const MAX_MEMBERSHIP_ENTRIES = MAX_GROUPS_PER_SERVER;
/** Bad groups/list entries named one by one in a listing's warnings; the rest are counted in one line. */
const MAX_SKIP_WARNINGS = 10;
/** Tools named one by one in the too-many-groups warnings of a listing; the rest are counted in one line. */
const MAX_TOOL_WARNINGS = 10;
/**
 * A group name must be spellable in `select:mcp__<server>/<group>`: letters, digits, `_`, `-`, `.`,
 * at most 64 characters (no comma, slash or space, which the query language uses).
 */
const GROUP_NAME = /^[\p{L}\p{N}_.-]{1,64}$/u;

/** What the daemon keeps of a listed group: its name, its parents, and its title and description (checked, group-text.ts). */
export interface ServerGroup {
  name: string;
  /** The groups this group is in (its `_meta` membership), checked names only. */
  parents: string[];
  /** Its `title` and `description`, one line each and bounded; absent when it gave neither. */
  text?: GroupText;
}

export function isGroupName(name: unknown): name is string {
  return typeof name === "string" && GROUP_NAME.test(name);
}

/** Whether a server's capabilities (initialize's or server/discover's) offer the grouping extension. */
export function offersGrouping(capabilities: unknown): boolean {
  if (!isRecord(capabilities)) return false;
  return isRecord(record(capabilities.extensions)[GROUPING_EXTENSION_ID]) || isRecord(record(capabilities.experimental)[GROUPING_EXTENSION_ID]);
}

export interface GroupPage {
  groups?: unknown;
  nextCursor?: unknown;
  /** A 2026-07-28 server's freshness hint on the result, read from the first page. */
  ttlMs?: unknown;
}

/** `groups/list` across pages, bounded like tools/list: pages, groups, a repeated cursor. Bad entries are skipped with a warning. */
export async function listAllGroups(fetchPage: (cursor: string | undefined) => Promise<GroupPage>): Promise<{ groups: ServerGroup[]; warnings: string[]; ttlMs?: number }> {
  const groups: ServerGroup[] = [];
  const warnings: string[] = [];
  // Skipped entries are named up to MAX_SKIP_WARNINGS, then counted: a page of a million bad
  // entries once overflowed the stack (`push(...warnings)`) and would flood the log a line each.
  let skipped = 0;
  const skip = (warning: string) => {
    if (++skipped <= MAX_SKIP_WARNINGS) warnings.push(warning);
  };
  // Lowercased name → the spelling kept: select: and the index read group names ignoring case
  // (search/group-registry.ts), so `docs` and `DOCS` would be one group there, each member in both.
  const names = new Map<string, string>();
  const seen = new Set<string>();
  let cursor: string | undefined;
  let ttlMs: number | undefined;
  const done = () => ({ groups, warnings: withSkipCount(warnings, skipped), ...(ttlMs !== undefined && { ttlMs }) });
  for (let page = 0; ; page++) {
    if (page === MAX_GROUP_PAGES) {
      warnings.push(`stopped listing groups after ${MAX_GROUP_PAGES} pages`);
      break;
    }
    const result = await fetchPage(cursor);
    if (page === 0 && typeof result.ttlMs === "number" && Number.isFinite(result.ttlMs) && result.ttlMs >= 0) ttlMs = Math.floor(result.ttlMs);
    if (!Array.isArray(result.groups)) throw new Error("groups/list answered without a groups array");
    for (const raw of result.groups) {
      const group = parseGroup(raw);
      if (typeof group === "string") skip(group);
      else if (names.get(group.name.toLowerCase()) === group.name) skip(`skipped group ${JSON.stringify(group.name)}: listed twice`);
      else if (names.has(group.name.toLowerCase())) skip(`skipped group ${JSON.stringify(group.name)}: group ${JSON.stringify(names.get(group.name.toLowerCase()))} is listed already, and names are told apart ignoring case`);
      else if (groups.length >= MAX_GROUPS_PER_SERVER) {
        warnings.push(`kept the first ${MAX_GROUPS_PER_SERVER} groups (the per-server limit)`);
        return done();
      } else {
        names.set(group.name.toLowerCase(), group.name);
        groups.push(group);
      }
    }
    if (typeof result.nextCursor !== "string") break;
    if (seen.has(result.nextCursor)) {
      warnings.push("stopped listing groups: the server repeated a cursor");
      break;
    }
    seen.add(result.nextCursor);
    cursor = result.nextCursor;
  }
  return done();
}

function withSkipCount(warnings: string[], skipped: number): string[] {
  if (skipped > MAX_SKIP_WARNINGS) warnings.push(`skipped ${skipped - MAX_SKIP_WARNINGS} more bad group entries`);
  return warnings;
}

function parseGroup(raw: unknown): ServerGroup | string {
  if (!isRecord(raw)) return "skipped a group that is not an object";
  if (!isGroupName(raw.name)) return `skipped group ${JSON.stringify(String(raw.name).slice(0, 80))}: a group name is 1-64 letters, digits, "_", "-" or "."`;
  // `select:mcp__github` (or `select:mcp__github__create_issue`) naming a server or tool not in the
  // pool (still connecting, disabled, outside the profile) resolved to a group of that spelling: any
  // server could answer for another's name with its own tools.
  if (raw.name.slice(0, 5).toLowerCase() === "mcp__") return `skipped group ${JSON.stringify(raw.name)}: a name starting "mcp__" reads as an MCP server or tool in select:`;
  const text = groupTextOf(raw);
  return { name: raw.name, parents: membershipOf(raw._meta), ...(text !== undefined && { text }) };
}

/** The group names a primitive's `_meta` puts it in (well-spelled names only, each once). */
export function membershipOf(meta: unknown): string[] {
  const listed = record(meta)[GROUPS_META_KEY];
  return Array.isArray(listed) ? [...new Set(listed.slice(0, MAX_MEMBERSHIP_ENTRIES).filter(isGroupName))] : [];
}

/**
 * Each group with every group that contains it, directly or through nesting (itself included).
 * Parents that are not listed groups are ignored; a cycle is no loop.
 */
export function enclosingGroups(groups: readonly ServerGroup[]): Map<string, string[]> {
  const { sorted, rows } = nestingClosure(groups);
  return new Map(sorted.map((name, index) => [name, sorted.filter((_, other) => hasBit(rows[index]!, other))]));
}

/**
 * The nesting's transitive closure as bit sets over the groups in sorted order: `rows[i]` holds i
 * and every group enclosing it. Warshall's algorithm on words, groups² × groups/32 steps whatever
 * the shape: a walk per group cost groups³ (8 M steps, 170 ms at 200 groups all nested in each other).
 */
function nestingClosure(groups: readonly ServerGroup[]): { sorted: string[]; rows: Uint32Array[] } {
  const sorted = groups.map((group) => group.name).sort();
  const bit = new Map(sorted.map((name, index) => [name, index]));
  const words = Math.ceil(sorted.length / 32);
  const rows = sorted.map(() => new Uint32Array(words));
  for (const group of groups) {
    const row = rows[bit.get(group.name)!]!;
    setBit(row, bit.get(group.name)!);
    for (const parent of group.parents) if (bit.has(parent)) setBit(row, bit.get(parent)!);
  }
  for (let via = 0; via < rows.length; via++) {
    const through = rows[via]!;
    for (const row of rows) {
      if (!hasBit(row, via)) continue;
      for (let word = 0; word < words; word++) row[word]! |= through[word]!;
    }
  }
  return { sorted, rows };
}

function setBit(row: Uint32Array, index: number): void {
  row[index >>> 5]! |= 1 << (index & 31);
}

function hasBit(row: Uint32Array, index: number): boolean {
  return (row[index >>> 5]! & (1 << (index & 31))) !== 0;
}

/**
 * The tools with `_meta["toolpool/groups"]` set to the groups each is in (declared groups only,
 * nesting followed), or removed when it is in none; tools are copied, never changed in place. A
 * group's title and description go on the first of its tools only (`toolpool/groupInfo`).
 */
export function withGroupMembership(tools: readonly McpTool[], groups: readonly ServerGroup[], warnings: string[] = []): McpTool[] {
  // Each group's closure as a bit set over the groups in sorted order: a tool's groups are the OR of
  // its direct groups' sets, read back in order (at most MAX_GROUPS_PER_SERVER bits), so a listing
  // costs tools × direct groups × a few words, whatever the nesting.
  const { sorted, rows } = nestingClosure(groups);
  const words = Math.ceil(sorted.length / 32);
  const closures = new Map(sorted.map((name, index) => [name, rows[index]!]));
  const union = new Uint32Array(words);
  // Each group's text rides on the first tool in it only (group-text.ts reads them back for all
  // members): a listing holds a server's texts once, however many tools are in its groups.
  const texts = new Map(groups.flatMap((group) => (group.text === undefined ? [] : [[group.name, group.text] as const])));
  const carried = new Set<string>();
  let greedy = 0;
  const out = tools.map((tool) => {
    union.fill(0);
    let direct = 0;
    for (const name of membershipOf(tool._meta)) {
      const set = closures.get(name);
      if (set === undefined) continue;
      direct++;
      for (let word = 0; word < words; word++) union[word]! |= set[word]!;
    }
    const { [POOL_GROUPS_META_KEY]: _dropped, [POOL_GROUP_INFO_META_KEY]: _droppedInfo, ...meta } = tool._meta ?? {};
    if (direct === 0) return tool._meta === undefined || !(POOL_GROUPS_META_KEY in tool._meta || POOL_GROUP_INFO_META_KEY in tool._meta) ? tool : { ...tool, _meta: meta };
    const kept: string[] = [];
    let count = 0;
    for (let index = 0; index < sorted.length; index++) {
      if (!hasBit(union, index)) continue;
      count++;
      if (kept.length < MAX_GROUPS_PER_TOOL) kept.push(sorted[index]!);
    }
    if (count > MAX_GROUPS_PER_TOOL && ++greedy <= MAX_TOOL_WARNINGS) warnings.push(`tool ${JSON.stringify(tool.name)} is in ${count} groups; kept ${MAX_GROUPS_PER_TOOL}`);
    const info = kept.flatMap((name) => (texts.has(name) && !carried.has(name) ? [[name, texts.get(name)!] as const] : []));
    for (const [name] of info) carried.add(name);
    return { ...tool, _meta: { ...meta, [POOL_GROUPS_META_KEY]: kept, ...(info.length > 0 && { [POOL_GROUP_INFO_META_KEY]: Object.fromEntries(info) }) } };
  });
  // One line for the rest: a server whose every tool is in every group must not flood the log.
  if (greedy > MAX_TOOL_WARNINGS) warnings.push(`${greedy - MAX_TOOL_WARNINGS} more tool(s) are in more than ${MAX_GROUPS_PER_TOOL} groups; kept ${MAX_GROUPS_PER_TOOL} each`);
  return out;
}

/** The checked group names the daemon wrote on a tool (pool-tool.ts reads them into `mcpInfo.groups`). */
export function poolGroupsOf(meta: unknown): string[] {
  const listed = record(meta)[POOL_GROUPS_META_KEY];
  return Array.isArray(listed) ? listed.filter(isGroupName).slice(0, MAX_GROUPS_PER_TOOL) : [];
}

export interface GroupingWiring {
  /** The server's capabilities, from initialize or server/discover. */
  capabilities: unknown;
  /** One `groups/list` page. */
  request: (params: Record<string, unknown>, timeoutMs: number) => Promise<GroupPage>;
  /** Registers the listener for `notifications/groups/list_changed`. */
  onGroupsChanged: (listener: () => void) => void;
}

/** Whether the offered extension says it sends `notifications/groups/list_changed` (its `listChanged`). */
export function groupsListChanged(capabilities: unknown): boolean {
  if (!isRecord(capabilities)) return false;
  const entry = record(capabilities.extensions)[GROUPING_EXTENSION_ID] ?? record(capabilities.experimental)[GROUPING_EXTENSION_ID];
  return record(entry).listChanged === true;
}

/**
 * A listing with its server's groups read in: a server that offers the extension is asked
 * `groups/list` and its tools get their `toolpool/groups` (and `toolpool/groupInfo`); a failed
 * `groups/list` costs the groups (a warning), never the tools. A first page's `ttlMs` (a 2026-07-28
 * server's list results carry one) comes back as `groupsTtlMs`.
 */
export function groupListing(capabilities: unknown, request: GroupingWiring["request"]): (listing: Listing, timeoutMs: number) => Promise<Listing> {
  const offered = offersGrouping(capabilities);
  return async (listing, timeoutMs) => {
    if (!offered) return { ...listing, tools: withGroupMembership(listing.tools, []) };
    const warnings = [...listing.warnings];
    let groups: ServerGroup[] = [];
    let ttlMs: number | undefined;
    try {
      const listed = await listAllGroups((cursor) => request(cursor === undefined ? {} : { cursor }, timeoutMs));
      groups = listed.groups;
      ttlMs = listed.ttlMs;
      warnings.push(...listed.warnings);
    } catch (error) {
      warnings.push(`groups/list failed, so the server's groups are left out: ${(error as Error).message}`);
    }
    return { ...listing, tools: withGroupMembership(listing.tools, groups, warnings), warnings, ...(ttlMs !== undefined && { groupsTtlMs: ttlMs }) };
  };
}

/**
 * The connection with groups read into every listing (groupListing). `notifications/groups/list_changed`
 * lists again, as a tool list change does. A 2026-07-28 connection reads its groups inside its own
 * listing instead (stateless-connection.ts), where its notifications and its TTL are.
 */
export function withGrouping(connection: ServerConnection, wiring: GroupingWiring): ServerConnection {
  const offered = offersGrouping(wiring.capabilities);
  const group = groupListing(wiring.capabilities, wiring.request);
  const changed: (() => void)[] = [];
  if (offered) wiring.onGroupsChanged(() => changed.forEach((listener) => listener()));
  return {
    get pid() {
      return connection.pid;
    },
    instructions: connection.instructions,
    listTools: async (timeoutMs: number): Promise<Listing> => group(await connection.listTools(timeoutMs), timeoutMs),
    callTool: (name, args, options) => connection.callTool(name, args, options),
    onToolsChanged(listener) {
      changed.push(listener);
      connection.onToolsChanged(listener);
    },
    onLost: (listener) => connection.onLost(listener),
    close: () => connection.close(),
  };
}

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
