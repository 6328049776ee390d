/**
 * Tool-name rules. Provider APIs accept `[a-zA-Z0-9_-]{1,64}`; MCP servers name tools freely, so
 * pool names are derived: `mcp__<server>__<tool>`, each part reduced to the allowed characters, and
 * a name that would pass 64 characters is cut and given a content-hash suffix so that two distinct
 * long names stay distinct.
 */
export const MAX_TOOL_NAME_LENGTH = 64;
const MCP_PREFIX = "mcp__";
const SEPARATOR = "__";
const HASH_LENGTH = 8;

export function sanitizeNamePart(part: string): string {
  const cleaned = part.replace(/[^a-zA-Z0-9_-]/g, "_");
  return cleaned === "" ? "_" : cleaned;
}

export function isValidToolName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_TOOL_NAME_LENGTH && /^[a-zA-Z0-9_-]+$/.test(name);
}

/**
 * `distinct`: the plain name is taken by another of the server's tools (MCP 2026-07-28 names may
 * use dots, so `get.weather` and `get_weather` can both exist): the name always gets the hash
 * suffix of the raw names, which keeps it apart.
 */
export function mcpToolName(server: string, tool: string, distinct = false): string {
  const full = `${MCP_PREFIX}${sanitizeNamePart(server)}${SEPARATOR}${sanitizeNamePart(tool)}`;
  if (full.length <= MAX_TOOL_NAME_LENGTH && !distinct) return full;
  // Hash the raw names, not the sanitized ones: "a.b" and "a_b" must not collide after cutting.
  const hash = shortHash(`${server}\u0000${tool}`);
  return `${full.slice(0, Math.min(full.length, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1))}_${hash}`;
}

/** The `mcp__<server>` prefix shared by every tool of a server (used by deny rules and narrowing). */
export function mcpServerPrefix(server: string): string {
  return `${MCP_PREFIX}${sanitizeNamePart(server)}`;
}

export interface ParsedMcpName {
  server: string;
  tool: string;
}

/** Splits `mcp__server__tool`; server names may not contain `__`, tool names may. */
export function parseMcpName(name: string): ParsedMcpName | undefined {
  if (!name.startsWith(MCP_PREFIX)) return undefined;
  const rest = name.slice(MCP_PREFIX.length);
  const split = rest.indexOf(SEPARATOR);
  if (split <= 0) return undefined;
  return { server: rest.slice(0, split), tool: rest.slice(split + SEPARATOR.length) };
}

function shortHash(text: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(text);
  return hasher.digest("hex").slice(0, HASH_LENGTH);
}
