/** The project table's bounds: per client, least recently used first, the config's roots kept. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TrustStore } from "../../src/config/trust-store.ts";
import { MAX_PROJECTS, MAX_PROJECTS_PER_CLIENT, ProjectServers } from "../../src/mcp/project-servers.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { tempDir } from "./helpers.ts";

function projects(count: number, prefix: string): string[] {
  const base = realpathSync(tempDir(`${prefix}-`));
  return Array.from({ length: count }, (_, index) => {
    const root = join(base, String(index));
    mkdirSync(root);
    writeFileSync(join(root, ".toolpool.json"), JSON.stringify({ mcpServers: { s: { command: "true" } } }));
    return root;
  });
}

function table() {
  return new ProjectServers(new TrustStore(join(tempDir("trust-"), "trust.json")), silentLogger);
}

const roots = (servers: ProjectServers) => servers.summaries().map((summary) => summary.root);

describe("project roots: bounded per client, least recently used dropped", () => {
  test("one client naming 256 junk roots keeps only its share; the newest stay; another client's root is unaffected", () => {
    const servers = table();
    const other = projects(1, "other");
    servers.observe(other, "client-b");
    const junk = projects(MAX_PROJECTS, "junk");
    for (const root of junk) servers.observe([root], "client-a");
    expect(roots(servers)).toEqual([...other, ...junk.slice(-MAX_PROJECTS_PER_CLIENT)]);
  });

  test("a full table drops the least recently used root (never the config's) for a new one", () => {
    const servers = table();
    const configured = projects(1, "configured");
    servers.observeConfigured(configured);
    const many = projects(MAX_PROJECTS, "many");
    // Many clients, each within its share, fill the table.
    many.forEach((root, index) => servers.observe([root], `client-${Math.floor(index / MAX_PROJECTS_PER_CLIENT)}`));
    expect(roots(servers).length).toBe(MAX_PROJECTS);
    expect(roots(servers)[0]).toBe(configured[0]!);
    // many[1] is used again: now the most recent.
    servers.observe([many[1]!], "client-0");
    const fresh = projects(1, "fresh");
    expect(servers.observe(fresh, "late-client")).toBe(true);
    const now = roots(servers);
    expect({ size: now.length, configuredKept: now.includes(configured[0]!), freshIn: now.includes(fresh[0]!), stalestGone: now.includes(many[0]!), reusedKept: now.includes(many[1]!) }).toEqual({
      size: MAX_PROJECTS,
      configuredKept: true,
      freshIn: true,
      stalestGone: false,
      reusedKept: true,
    });
  });
});
