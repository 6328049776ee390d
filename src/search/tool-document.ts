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

/**
 * Builds the SearchDocument of an MCP-style tool: parameters come from the top-level
 * `properties` of its input schema (name and description; nested schemas are not indexed).
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
  return Object.entries(schema.properties).map(([name, property]) => {
    const description = isRecord(property) && typeof property.description === "string" ? property.description : undefined;
    return description === undefined ? { name } : { name, description };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
