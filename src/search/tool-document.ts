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

/** Top-level properties of a JSON Schema object as search parameters; anything malformed yields none. */
export function parametersOf(schema: unknown): SearchParameter[] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties).map(([name, property]) => {
    const parameter: SearchParameter = { name };
    if (required.has(name)) parameter.required = true;
    if (!isRecord(property)) return parameter;
    if (typeof property.description === "string") parameter.description = property.description;
    const values = Array.isArray(property.enum) ? property.enum.filter((value) => typeof value === "string") : [];
    if (values.length > 0) parameter.values = values.slice(0, ENUM_LIMIT);
    return parameter;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
