/** The client-side commands: status, tools, call, stop. Each talks to a running daemon. */
import { loginCommand } from "../protocol/login-command.ts";
import { readBridgeStats } from "../bridge/bridge-stats.ts";
import { DaemonError, NotRunningError, ToolpoolClient } from "../client/client.ts";
import { locateDaemon } from "../client/socket-discovery.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";
import { formatServers, formatStatus, formatTools } from "./format.ts";
import { invocation } from "./invocation.ts";
import { plainDaemonError } from "./daemon-error-text.ts";
import { nearestKey } from "../config/issue-text.ts";
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT } from "../search/result-limits.ts";

export interface ClientCommandOptions {
  socket?: string;
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
}

export async function withClient(
  options: ClientCommandOptions,
  run: (client: ToolpoolClient) => Promise<number>,
): Promise<number> {
  const { socketPath } = await locateDaemon({ flag: options.socket });
  let client: ToolpoolClient;
  try {
    client = await ToolpoolClient.connect(socketPath);
  } catch (error) {
    if (error instanceof NotRunningError) {
      if (options.json) options.out(JSON.stringify({ running: false, socket: socketPath }));
      options.err(`toolpool: no daemon is running on ${socketPath} (start one with: ${invocation()} serve${options.socket ? ` --socket ${socketPath}` : ""})`);
      return ExitCode.NotRunning;
    }
    throw error;
  }
  try {
    return await run(client);
  } catch (error) {
    if (error instanceof DaemonError) {
      if (options.json) options.out(JSON.stringify({ error: { code: error.code, message: error.message } }));
      options.err(`toolpool: ${plainDaemonError(error.code, error.message)}`);
      return ExitCode.Failed;
    }
    throw error;
  } finally {
    client.close();
  }
}

export function status(options: ClientCommandOptions): Promise<number> {
  return withClient(options, async (client) => {
    const result = await client.status();
    // HTTP bridges are separate processes: their session and eviction counts come from their files.
    const httpBridges = readBridgeStats(client.socketPath);
    if (options.json) options.out(JSON.stringify({ running: true, ...result, ...(httpBridges.length > 0 && { httpBridges }) }));
    else options.out([formatStatus(result), ...httpBridges.map((bridge) => `  HTTP bridge pid ${bridge.pid} at ${bridge.url}: ${bridge.evictions} idle sessions evicted`)].join("\n"));
    return ExitCode.Ok;
  });
}

export function tools(options: ClientCommandOptions, profile?: string): Promise<number> {
  return withClient(options, async (client) => {
    const result = await client.tools(profile === undefined ? {} : { profile });
    options.out(options.json ? JSON.stringify(result) : formatTools(result));
    return ExitCode.Ok;
  });
}

export function call(options: ClientCommandOptions, name: string | undefined, inputText: string | undefined): Promise<number> {
  if (!name) throw new UsageError("usage: toolpool call NAME [JSON-INPUT]");
  let input: Record<string, unknown> = {};
  if (inputText !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(inputText);
    } catch (error) {
      throw new UsageError(`the input is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new UsageError("the input must be a JSON object");
    input = parsed as Record<string, unknown>;
  }
  return withClient(options, async (client) => {
    const result = await client.call({ name, input });
    const unknown = result.isError && isUnknownTool(result.content);
    if (unknown && !options.json) {
      const names = (await client.tools()).tools.map((tool) => tool.name);
      const near = names.find((known) => known.toLowerCase() === name.toLowerCase()) ?? nearestKey(name, names);
      options.err(`toolpool: there is no tool named "${name}"${near ? ` (did you mean "${near}"?)` : ""}; \`${invocation()} tools\` lists them`);
      return ExitCode.Failed;
    }
    if (options.json) options.out(JSON.stringify(result));
    else {
      const text = result.content
        .map((block) => {
          const typed = block as { type: string; text?: string };
          return typed.type === "text" ? (typed.text ?? "") : `[${typed.type}]`;
        })
        .join("");
      (result.isError ? options.err : options.out)(text);
    }
    return result.isError ? ExitCode.Failed : ExitCode.Ok;
  });
}

export function stop(options: ClientCommandOptions): Promise<number> {
  return withClient(options, async (client) => {
    const status = await client.status();
    let timer: ReturnType<typeof setInterval> | undefined;
    const exited = new Promise<boolean>((resolve) => {
      timer = setInterval(() => {
        try {
          process.kill(status.pid, 0);
        } catch {
          resolve(true);
        }
      }, 25);
    });
    await client.shutdown();
    // The daemon drains for up to 5 s and must be gone within 10 s; past 12 s, say so.
    const stopped = await Promise.race([exited, Bun.sleep(12_000).then(() => false)]);
    clearInterval(timer);
    if (!stopped) {
      if (options.json) options.out(JSON.stringify({ stopped: false, pid: status.pid }));
      options.err(`toolpool: the daemon (pid ${status.pid}) accepted the shutdown but is still running after 12 s`);
      return ExitCode.Failed;
    }
    options.out(options.json ? JSON.stringify({ stopped: true, pid: status.pid }) : `stopped toolpool (pid ${status.pid})`);
    return ExitCode.Ok;
  });
}

export function search(options: ClientCommandOptions, words: readonly string[], maxResults?: number): Promise<number> {
  const query = words.join(" ").trim();
  if (!query) throw new UsageError('usage: toolpool search QUERY (keywords, "select:A,B" or "discover:words")');
  return withClient(options, async (client) => {
    const result = (await client.search({ query, ...(maxResults !== undefined && { maxResults }) })) as {
      matches: { name: string; score: number; description: string; deferred: boolean; server?: string; needsAuth?: boolean }[];
      missing?: string[];
      didYouMean?: string[];
      pendingServers?: string[];
    };
    if (options.json) {
      options.out(JSON.stringify(result));
      return ExitCode.Ok;
    }
    for (const match of result.matches) {
      const summary = (match.description.split("\n").find((line) => line.trim() !== "") ?? "").trim().slice(0, 90);
      const login = match.needsAuth ? ` (needs login: ${loginCommand(match.server ?? "")})` : "";
      options.out(`${match.name}  ${match.deferred ? "[deferred]" : "[core]"} ${summary}${login}`);
    }
    if (result.matches.length === 0) options.out("no matching tools");
    for (const line of listingLines(result, query, maxResults)) options.out(line);
    if (result.missing?.length) options.out(`not found: ${result.missing.join(", ")}`);
    if (result.didYouMean?.length) options.out(`did you mean: ${result.didYouMean.join(", ")}`);
    if (result.pendingServers?.length) options.out(`still connecting: ${result.pendingServers.join(", ")} (try again shortly)`);
    return ExitCode.Ok;
  });
}

/**
 * What a listing (`mcp__server`) or a server or group selected whole left out: how many in all and
 * the command for the next page. The listing's page is `--max` long (5 unless given): it printed five
 * of a server's 118 tools and said nothing of the rest.
 */
function listingLines(result: Record<string, unknown>, query: string, maxResults: number | undefined): string[] {
  const lines: string[] = [];
  const shown = (result.matches as unknown[]).length;
  if (result.listed === true && typeof result.listedTotal === "number" && typeof result.page === "number" && result.listedTotal > shown) {
    const size = maxResults ?? DEFAULT_MAX_RESULTS;
    const first = (result.page - 1) * size + 1;
    // Past the end: how many pages there are at this --max, and the first one (it said only "none on page 51").
    const base = query.replace(/\s+page:\d+\s*$/i, "");
    const pages = Math.ceil(result.listedTotal / size);
    const range = shown > 0 ? `tools ${first}–${first + shown - 1} of ${result.listedTotal}` : `${result.listedTotal} tools, none on page ${result.page}: ${pages} page(s) of ${size}; the first: toolpool search ${shellQuote(base)}${maxResults === undefined ? "" : ` --max ${maxResults}`}`;
    const next = first + shown - 1 < result.listedTotal && shown > 0 ? `; next: toolpool search ${shellQuote(`${base} page:${result.page + 1}`)}${maxResults === undefined ? "" : ` --max ${maxResults}`}` : "";
    lines.push(`MCP server ${String(result.server)}: ${range}${next}`);
  }
  for (const selection of (result.servers ?? []) as { server: string; total: number; selected: number }[]) {
    if (selection.selected < selection.total) lines.push(`MCP server ${selection.server}: ${selection.selected} of its ${selection.total} tools selected (a selection holds at most ${MAX_RESULTS_LIMIT})`);
  }
  for (const selection of (result.groups ?? []) as { server: string; group: string; total: number; selected: number }[]) {
    if (selection.selected < selection.total) lines.push(`group ${selection.group} of MCP server ${selection.server}: ${selection.selected} of its ${selection.total} tools selected (a selection holds at most ${MAX_RESULTS_LIMIT})`);
  }
  return lines;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/** `toolpool servers`, `toolpool servers --logs NAME`, `toolpool servers restart NAME`. */
export function servers(options: ClientCommandOptions, args: readonly string[], logsOf?: string): Promise<number> {
  const [action, name, ...extra] = args;
  if (extra.length > 0 || (action !== undefined && action !== "restart") || (action === "restart" && !name)) {
    throw new UsageError("usage: toolpool servers [--logs NAME] | toolpool servers restart NAME");
  }
  return withClient(options, async (client) => {
    if (action === "restart") {
      const { server } = await client.restartServer(name!);
      options.out(options.json ? JSON.stringify(server) : formatServers([server]));
      return server.state === "connected" || server.state === "idle" ? ExitCode.Ok : ExitCode.Failed;
    }
    if (logsOf !== undefined) {
      const result = await client.serverLogs(logsOf);
      options.out(options.json ? JSON.stringify(result) : result.lines.join("\n") || `(no output from ${logsOf} yet)`);
      return ExitCode.Ok;
    }
    const result = await client.servers();
    options.out(options.json ? JSON.stringify(result) : formatServers(result.servers));
    return ExitCode.Ok;
  });
}

/** The daemon's answer to a call of a name that is not in the pool (what a model is told). */
function isUnknownTool(content: readonly unknown[]): boolean {
  const first = content[0] as { type?: string; text?: string } | undefined;
  return content.length === 1 && first?.type === "text" && /^No tool named "/.test(first.text ?? "");
}
