/**
 * `toolpool stats [--since 1h|24h|7d] [--json]` and `toolpool history clear [--workspace PATH]`.
 * Clearing works without a daemon too: then the CLI empties the history file itself.
 */
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { NotRunningError, ToolpoolClient } from "../client/client.ts";
import type { HistoryClearResult } from "../protocol/stats-result.ts";
import { MAX_STATS_WINDOW_MS } from "../protocol/usage-methods.ts";
import { locateDaemon } from "../client/socket-discovery.ts";
import { withClient, type ClientCommandOptions } from "./commands.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";
import { formatStats } from "./stats-format.ts";

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90m`, `1h`, `24h`, `7d` → milliseconds. */
export function parseSince(text: string): number {
  const match = /^(\d{1,6})([mhd])$/.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2]!]! : Number.NaN;
  if (!match || ms < 1 || ms > MAX_STATS_WINDOW_MS) throw new UsageError(`--since takes a window such as 1h, 24h or 7d (minutes m, hours h, days d; at most 366d), not ${JSON.stringify(text)}`);
  return ms;
}

export function stats(options: ClientCommandOptions, since: string | undefined): Promise<number> {
  const sinceMs = since === undefined ? undefined : parseSince(since);
  return withClient(options, async (client) => {
    const result = await client.stats(sinceMs === undefined ? {} : { sinceMs });
    options.out(options.json ? JSON.stringify(result) : formatStats(result, since));
    return ExitCode.Ok;
  });
}

export async function historyClear(options: ClientCommandOptions, args: readonly string[], workspace: string | undefined): Promise<number> {
  if (args[0] !== "clear" || args.length > 1) throw new UsageError("usage: toolpool history clear [--workspace PATH]");
  // Sessions record their workspace root as a real path; say the same path however it is typed.
  const target = workspace === undefined ? null : existsSync(workspace) ? realpathSync(workspace) : resolve(workspace);
  const params = target === null ? {} : { workspace: target };
  const { socketPath } = await locateDaemon({ flag: options.socket });
  let client: ToolpoolClient | undefined;
  try {
    client = await ToolpoolClient.connect(socketPath);
  } catch (error) {
    if (!(error instanceof NotRunningError)) throw error;
  }
  if (!client) return report(options, clearOffline(target), "no daemon running; cleared the history file directly");
  client.close();
  return withClient(options, async (connected) => report(options, await connected.clearHistory(params)));
}

function clearOffline(workspace: string | null): HistoryClearResult {
  const { defaultUsageDatabasePath } = require("../usage/open-usage.ts") as typeof import("../usage/open-usage.ts");
  const path = defaultUsageDatabasePath();
  if (!existsSync(path)) return { workspace, removed: 0 };
  const { UsageStore, removeUsageFiles } = require("../usage/usage-store.ts") as typeof import("../usage/usage-store.ts");
  const store = new UsageStore(path);
  let removed: number;
  try {
    removed = workspace === null ? store.countRows() : store.clear(workspace);
  } finally {
    store.close();
  }
  if (workspace === null) removeUsageFiles(path);
  return { workspace, removed };
}

function report(options: ClientCommandOptions, result: HistoryClearResult, note?: string): number {
  if (options.json) options.out(JSON.stringify(result));
  else options.out(`cleared ${result.removed} history row(s) ${result.workspace === null ? "(all workspaces)" : `of ${result.workspace}`}${note ? ` — ${note}` : ""}`);
  return ExitCode.Ok;
}
