/**
 * Parts of ToolSearch's answers that are about the pool rather than one match: the listing of a
 * server (`mcp__server` alone), the note on servers still connecting, and on servers waiting for a login.
 */
import { firstSentence } from "../assembly/server-summaries.ts";
import { SIGNATURE_MAX_PARAMS, toolSignature } from "../assembly/tool-signature.ts";
import { TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import { loginCommand } from "../protocol/login-command.ts";
import { MAX_QUERY_CHARS } from "../search/query-parser.ts";
import { MAX_RESULTS_LIMIT } from "../search/result-limits.ts";
import type { GroupSelection, ServerSelection } from "../search/types.ts";
import type { ToolResult } from "../tool/result.ts";
import type { Tool } from "../tool/tool.ts";
import { LISTING_PAGE_SIZE } from "./tool-search-units.ts";

/** Which servers this search could not see in full, and why. */
export function pendingNote(pending: readonly string[], cached: ReadonlySet<string> = new Set()): string {
  const absent = pending.filter((server) => !cached.has(server));
  const stale = pending.filter((server) => cached.has(server));
  const parts: string[] = [];
  if (absent.length > 0) parts.push(`MCP servers still connecting: ${absent.join(", ")}. Their tools are not searchable yet — search again shortly.`);
  if (stale.length > 0) {
    parts.push(`MCP servers still connecting, searched from their cached tool lists (may be stale until they connect): ${stale.join(", ")}.`);
  }
  return parts.join(" ");
}

/** Matches found from a server that waits for a login: the model cannot log in, the user can. */
export function loginNote(servers: readonly string[]): string {
  const commands = servers.map(loginCommand).join("; ");
  return `Tools of ${servers.length === 1 ? "MCP server" : "MCP servers"} ${servers.join(", ")} need a login before they can run: ask the user to run \`${commands}\`, then call them.`;
}

/** Where a listing page sits among all of a server's deferred tools. */
export interface ListingPage {
  /** Deferred tools of the server in all. */
  total: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  /** Every server the listing spans, when the query named more than one (`mcp__a mcp__b`). */
  servers?: readonly string[];
  /** The server's tools already loaded in full (core): the first few by name, and how many. */
  loaded?: { names: readonly string[]; total: number };
}

/**
 * `mcp__server` alone: the server's deferred tools by name with the first sentence of each
 * description, loading none of them; the model selects. A page holds `pageSize` tools; the head
 * says how many there are in all and the exact query for the next page, so every tool is
 * reachable by the path the `servers` announcement points to.
 */
export function serverListing(
  server: string,
  tools: readonly Tool[],
  where: ListingPage,
  pending: readonly string[],
  cached: ReadonlySet<string>,
  groups: readonly ListedGroup[] = [],
): ToolResult {
  const lines = tools.map((tool) => `- ${tool.name}: ${firstSentence(tool.description)}`);
  const pages = Math.max(1, Math.ceil(where.total / where.pageSize));
  const first = (where.page - 1) * where.pageSize + 1;
  // A listing of several servers is one listing: named and paged as the query that made it (its
  // pages once pointed at the first server's alone, and the others' tools were on no page).
  const several = where.servers !== undefined && where.servers.length > 1 ? where.servers : undefined;
  const label = several ? `MCP servers ${several.join(", ")}` : `MCP server ${server}`;
  const listQuery = several ? several.map((name) => `mcp__${name}`).join(" ") : `mcp__${server}`;
  const head: string[] = [];
  if (where.total === 0) {
    head.push(`${label} ${several ? "have" : "has"} no deferred tools to load.`);
  } else if (tools.length === 0) {
    head.push(`${label} ${several ? "have" : "has"} ${where.total} deferred tool(s) on ${pages} page(s); page ${where.page} is past the last. Query "${listQuery}" for the first page.`);
  } else {
    const range = pages > 1 ? ` Page ${where.page} of ${pages}: tools ${first}–${first + tools.length - 1}.` : "";
    head.push(`${label}: ${where.total} deferred tool(s), not loaded.${range} Load the ones you need with ${TOOL_SEARCH_TOOL_NAME} "select:<name>,<name>".`);
    if (where.page < pages) head.push(`${where.total - (first + tools.length - 1)} more: query "${listQuery} page:${where.page + 1}" for the next page.`);
  }
  if (where.loaded !== undefined && where.loaded.total > 0) {
    const more = where.loaded.total - where.loaded.names.length;
    head.push(`${where.total === 0 ? "Its" : "Also its"} ${where.loaded.total} tool(s) loaded already as core tools (call them directly, no select): ${where.loaded.names.join(", ")}${more > 0 ? `, and ${more} more` : ""}.`);
  }
  if (groups.length > 0) head.push(groupsLine(server, groups));
  const notes = pending.length > 0 ? [pendingNote(pending, cached)] : [];
  const structured: Record<string, unknown> = {
    query: listQuery,
    kind: "server",
    server,
    ...(several && { servers: several }),
    tools: tools.map((tool) => tool.name),
    total: where.total,
    page: where.page,
    pages,
  };
  if (groups.length > 0) structured.groups = groups.map(({ name, size, title, description }) => ({ name, size, ...(title !== undefined && { title }), ...(description !== undefined && { description: firstSentence(description) }) }));
  const absent = pending.filter((name) => !cached.has(name));
  const stale = pending.filter((name) => cached.has(name));
  if (absent.length > 0) structured.pending_mcp_servers = absent;
  if (stale.length > 0) structured.stale_mcp_servers = stale;
  return { content: [{ type: "text", text: [...head, ...notes, ...lines].join("\n") }], isError: false, structuredContent: structured };
}

/** `select:mcp__<server>`: the server was selected as a unit; says so, and what a full selection left out. */
export function serverSelectionNote(selection: ServerSelection): string {
  if (selection.total === 0) return `Selected MCP server ${selection.server} as a whole: it has no deferred tools.`;
  if (selection.selected === selection.total) return `Selected MCP server ${selection.server} as a whole: its ${selection.total} tool(s).`;
  // A server that fits a selection alone was cut by the names before it (select:mcp__a,mcp__b,mcp__c):
  // selecting it alone loads it whole, where its listing made the model pick its tools out by name.
  if (selection.total <= MAX_RESULTS_LIMIT) {
    return `Selected MCP server ${selection.server}: ${selection.selected} of its ${selection.total} tools, the names before it in this select: having taken the rest of the room (a selection holds at most ${MAX_RESULTS_LIMIT}). Select it alone to load all of them: "select:mcp__${selection.server}".`;
  }
  return `Selected MCP server ${selection.server} as a whole: ${selection.selected} of its ${selection.total} tools (a selection holds at most ${MAX_RESULTS_LIMIT}). List the rest with "mcp__${selection.server} page:${Math.floor(selection.selected / LISTING_PAGE_SIZE) + 1}" and select them by name.`;
}

/**
 * Names as ready `select:` queries, quoted and joined with " and ": as many names a query as a
 * selection holds (MAX_RESULTS_LIMIT) and the engine reads (MAX_QUERY_CHARS; past it a name was cut in half).
 */
export function selectQueries(names: readonly string[]): string {
  const queries: string[] = [];
  let current: string[] = [];
  let chars = "select:".length;
  for (const name of names) {
    if (current.length > 0 && (current.length >= MAX_RESULTS_LIMIT || chars + name.length + 1 > MAX_QUERY_CHARS)) {
      queries.push(`select:${current.join(",")}`);
      current = [];
      chars = "select:".length;
    }
    current.push(name);
    chars += name.length + 1;
  }
  if (current.length > 0) queries.push(`select:${current.join(",")}`);
  return `${TOOL_SEARCH_TOOL_NAME} ${queries.map((query) => JSON.stringify(query)).join(" and ")}`;
}

/** A server's group as its listing shows it: the index's name and size, the server's own words beside them. */
export interface ListedGroup {
  name: string;
  size: number;
  title?: string;
  description?: string;
}

/** Groups shown with their titles and descriptions, a line each; the rest are named on one line. */
const MAX_DESCRIBED_GROUPS = 30;

/**
 * A listed server's groups (the MCP grouping extension), each one `select:` away. A group's title
 * and description are the server's text: shown on the group's own line, one line, the description's
 * first sentence only (at most 160 characters), as a tool's description is in the same listing.
 */
export function groupsLine(server: string, groups: readonly ListedGroup[]): string {
  const how = `Load a whole group with ${TOOL_SEARCH_TOOL_NAME} "select:mcp__${server}/<group>".`;
  if (!groups.some((group) => group.title !== undefined || group.description !== undefined)) {
    return `Its groups: ${groups.map((group) => `${group.name} (${group.size})`).join(", ")}. ${how}`;
  }
  const described = groups.slice(0, MAX_DESCRIBED_GROUPS).map((group) => {
    const words = [group.title, group.description].flatMap((text) => (text === undefined ? [] : [firstSentence(text)])).filter((text) => text.length > 0);
    return `- group ${group.name} (${group.size} tool${group.size === 1 ? "" : "s"})${words.length > 0 ? `: ${words.join(" — ")}` : ""}`;
  });
  const rest = groups.slice(MAX_DESCRIBED_GROUPS);
  const more = rest.length > 0 ? [`- ${rest.length} more group(s): ${rest.map((group) => `${group.name} (${group.size})`).join(", ")}`] : [];
  return [`Its groups (${how.slice(0, -1)}):`, ...described, ...more].join("\n");
}

/**
 * `select:mcp__<server>/<group>`: a server's group was selected as a unit. Past a selection's MAX_RESULTS_LIMIT,
 * `rest` names the group's other tools (no listing says which tools a group holds) as ready queries.
 */
export function groupSelectionNote(selection: GroupSelection, rest: readonly string[] = [], noRoom = false): string {
  const what = `Selected group ${selection.group} of MCP server ${selection.server}`;
  if (selection.selected === selection.total) return `${what}: its ${selection.total} tool(s).`;
  const head = `${what}: ${selection.selected} of its ${selection.total} tools (a selection holds at most ${MAX_RESULTS_LIMIT})`;
  if (noRoom) return `${head}; this answer has no room to name the rest: select the group alone ("select:mcp__${selection.server}/${selection.group}") to have them named.`;
  if (rest.length === 0) return `${head}; select the rest by name.`;
  const unnamed = selection.total - selection.selected - rest.length;
  const more = unnamed > 0 ? ` ${unnamed} more of the group are not named here: find them by keyword within the server ("mcp__${selection.server} <words>").` : "";
  return `${head}. The rest: ${selectQueries(rest)}.${more}`;
}

/**
 * A tool whose definition no answer holds (a schema may be 256K characters), as its signature: shown
 * whole, the pipeline cut the answer mid-schema with its discovered line; named only, a proxy session
 * could never run it. Its call is validated against the whole schema, whose errors say what is wrong.
 */
export function oversizedSection(tool: Tool, length: number): string {
  return `${toolSignature(tool)}\nIts full definition (${length.toLocaleString("en-US")} characters) is longer than an answer holds: above are its top-level parameters (at most ${SIGNATURE_MAX_PARAMS}); a call that misses what its input schema requires is answered with what is wrong.`;
}
