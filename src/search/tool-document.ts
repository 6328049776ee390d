import { serverOfMcpName, toolPartOfName } from "./document-fields.ts";
import type { SearchDocument, SearchParameter } from "./types.ts";

/** A tool as the MCP catalog and the eval set carry it: JSON Schema input, raw server name. */
export interface CatalogTool {
  name: string;
  description?: string;
  server?: string;
  /** MCP wire spelling. */
  inputSchema?: unknown;
  /** Anthropic / eval spelling. */
  input_schema?: unknown;
  /** The server's own name for the tool; derived from a `mcp__server__tool` name when absent. */
  rawToolName?: string;
  serverDescription?: string;
  server_description?: string;
}

/** Enum values indexed per parameter; long enums (country codes, …) add little but noise. */
const ENUM_LIMIT = 50;

/**
 * Builds the SearchDocument of an MCP-style tool: parameters come from the top-level
 * `properties` of its input schema (name, description and string enum values; nested schemas are not indexed).
 */
export function searchDocumentFromTool(tool: CatalogTool): SearchDocument {
  const doc: SearchDocument = {
    name: tool.name,
    description: tool.description ?? "",
    parameters: parametersOf(tool.inputSchema ?? tool.input_schema),
  };
  const server = tool.server ?? serverOfMcpName(tool.name);
  if (server !== undefined) doc.server = server;
  const raw = tool.rawToolName ?? (tool.name.startsWith("mcp__") ? toolPartOfName(tool.name) : undefined);
  if (raw !== undefined) doc.rawToolName = raw;
  const serverDescription = tool.serverDescription ?? tool.server_description;
  if (serverDescription !== undefined && serverDescription.length > 0) doc.serverDescription = serverDescription;
  return doc;
}

/**
 * Top-level properties of a JSON Schema object as search parameters; anything malformed yields none.
 * Written as plain loops (no entries array, no Set, no filtered copy): the daemon makes one of
 * these per tool while it indexes, and at 100k tools the throwaway arrays were a large part of the
 * build's garbage.
 */
export function parametersOf(schema: unknown): SearchParameter[] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return [];
  const required = Array.isArray(schema.required) ? schema.required : undefined;
  const properties = schema.properties;
  const parameters: SearchParameter[] = [];
  for (const name in properties) {
    if (!Object.hasOwn(properties, name)) continue;
    const parameter: SearchParameter = { name };
    if (required?.includes(name)) parameter.required = true;
    parameters.push(parameter);
    const property = properties[name];
    if (!isRecord(property)) continue;
    if (typeof property.description === "string") parameter.description = property.description;
    if (!Array.isArray(property.enum)) continue;
    let values: string[] | undefined;
    for (const value of property.enum) {
      if (typeof value !== "string") continue;
      (values ??= []).push(value);
      if (values.length >= ENUM_LIMIT) break;
    }
    if (values !== undefined) parameter.values = values;
  }
  return parameters;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
