/**
 * `config import --write`: imported servers merged into the user's toolpool config. A server
 * already there unchanged is skipped; one there with a different definition is never replaced —
 * the import goes in beside it as NAME-HOST, and the answer says so.
 */
import { readFileSync } from "node:fs";
import { ConfigError, parseConfig, parseConfigText } from "../config/load.ts";
import { freeName, type ImportedServer } from "./import-servers.ts";
import { writeJsonFile, type WriteOutcome } from "./write-json-file.ts";

export interface MergeOutcome extends Partial<WriteOutcome> {
  configPath: string;
  added: string[];
  unchanged: string[];
  /** Imported under another name because the config has a different server of that name. */
  renamed: { from: string; to: string }[];
}

export function readConfigObject(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError(`cannot read config ${path}: ${(error as Error).message}`);
  }
  const raw = parseConfigText(text, `config ${path}`);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new ConfigError(`config ${path} does not hold a JSON object`);
  return raw as Record<string, unknown>;
}

export function mergeIntoConfig(configPath: string, servers: readonly ImportedServer[], now?: Date): MergeOutcome {
  const config = readConfigObject(configPath);
  // Null-prototype: a server named `__proto__` or `constructor` is a key like any other.
  const existing: Record<string, unknown> = Object.assign(Object.create(null), (config.mcpServers as Record<string, unknown> | undefined) ?? {});
  const outcome: MergeOutcome = { configPath, added: [], unchanged: [], renamed: [] };
  for (const server of servers) {
    const current = Object.hasOwn(existing, server.name) ? existing[server.name] : undefined;
    // Already there under any name (an earlier import renamed it): nothing to add.
    const same = Object.entries(existing).find(([, value]) => Bun.deepEquals(value, server.config));
    if (same) {
      outcome.unchanged.push(same[0]);
    } else if (current === undefined) {
      existing[server.name] = server.config;
      outcome.added.push(server.name);
    } else {
      const to = freeName(`${server.name}-${server.host}`, (name) => Object.hasOwn(existing, name));
      existing[to] = server.config;
      outcome.renamed.push({ from: server.name, to });
    }
  }
  if (outcome.added.length === 0 && outcome.renamed.length === 0) return outcome;
  const next = { ...config, mcpServers: existing };
  // Never write a file the daemon would refuse.
  parseConfig(next, configPath);
  return { ...outcome, ...writeJsonFile(configPath, next, now) };
}
