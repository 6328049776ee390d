/**
 * The real-server benchmark: the tools/list catalogs of popular npm MCP servers
 * (bench/data/real-servers.json, captured by bench/capture-mcp-catalogs.ts) and requests written
 * against them (bench/data/real-requests.jsonl), each tagged with the failure class it probes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogTool } from "../../src/search/tool-document.ts";
import { mcpToolName } from "../../src/tool/names.ts";
import { readJsonl, repoRoot, type EvalQuery } from "./eval-data.ts";

export interface RealServerCatalog {
  server: string;
  package: string;
  version: string;
  license: string;
  instructions?: string;
  tools: { name: string; description?: string; inputSchema?: unknown }[];
}

export interface RealRequest extends EvalQuery {
  /** server-word, enum-verb, direction, no-shared-words, plain. */
  class: string;
  /** natural (what a user types) or keyword (what a model writes into ToolSearch). */
  style: string;
}

export function realDataDir(): string {
  return join(repoRoot(), "bench/data");
}

export function readRealCatalogs(dir = realDataDir()): RealServerCatalog[] {
  return (JSON.parse(readFileSync(join(dir, "real-servers.json"), "utf8")) as { servers: RealServerCatalog[] }).servers;
}

/** The pool's tools as the daemon indexes them: `mcp__server__tool`, raw name, server instructions. */
export function realCatalogTools(catalogs: readonly RealServerCatalog[]): CatalogTool[] {
  return catalogs.flatMap((catalog) =>
    catalog.tools.map((tool) => ({
      name: mcpToolName(catalog.server, tool.name),
      server: catalog.server,
      rawToolName: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      ...(catalog.instructions !== undefined && { serverDescription: catalog.instructions }),
    })),
  );
}

/** Requests; each gold list is one step whose members are alternatives. */
export function readRealRequests(dir = realDataDir()): RealRequest[] {
  return readJsonl<RealRequest>(join(dir, "real-requests.jsonl")).map((request) => ({
    ...request,
    source: "real-servers",
    gold_groups: [request.gold],
  }));
}
