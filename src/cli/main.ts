/** The command line: one binary, one verb per job. `toolpool help` lists them. */
import { parseArgs } from "node:util";
import { buildInfo } from "../build-info.ts";
import type { ClientCommandOptions } from "./commands.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";

// Each command's module is loaded when that command runs: `serve` never pays for the watch view,
// the service writer or the MCP server bridge, and a client command never loads the daemon.
const commands = () => import("./commands.ts");

const HELP = `toolpool — a tool-pool daemon for LLM agents

usage: toolpool <command> [options]

commands:
  serve                 run the daemon in the foreground
  status                show the running daemon's state
  status --watch        a live view, redrawn every second (q or Ctrl-C quits)
  tools                 list the tool pool
  call NAME [JSON]      run one tool, e.g. toolpool call Read '{"file_path":"README.md"}'
  search QUERY          search the pool as ToolSearch does (keywords, select:A,B, discover:words)
  servers               list the MCP servers: state, reason, tools, pid, restarts
  servers restart NAME  restart an MCP server (also un-parks one that failed repeatedly)
  flags                 show runtime flags: value, source (default/file/remote/cached), payload age
  stats                 usage: searches (zero results, search→call conversion), prefetch, calls per
                        tool and server, server events, first-request tokens; --since 1h|24h|7d
  history clear         forget the usage history (ranking's prior, stats); --workspace PATH for one
  stop                  stop the running daemon
  mcp                   an MCP server on stdio bridged to the daemon (starts one if none runs)
  mcp --http HOST:PORT  the same over Streamable HTTP, loopback only (e.g. 127.0.0.1:8765)
  service ACTION        install | uninstall | status | print the background service (systemd user
                        unit on Linux, launchd agent on macOS) for this binary
  version               print version, tier and compiled features

options:
  --socket PATH         the daemon's socket (default: $TOOLPOOL_SOCKET, $XDG_RUNTIME_DIR/toolpool/toolpool.sock)
  --config PATH         (serve) the config file (default: $TOOLPOOL_CONFIG, $XDG_CONFIG_HOME/toolpool/config.json)
  --demo                (serve) add the reference MCP servers from ./node_modules/.bin (everything, memory,
                        filesystem in a fresh temp dir, sequential-thinking)
  --logs NAME           (servers) show an MCP server's recent stderr
  --root DIR            (mcp) a workspace root for the bridge's sessions; repeatable
  --binary PATH         (service) the toolpool binary the service runs (default: this one)
  --platform NAME       (service print) linux or darwin (default: this system)
  --json                machine-readable output
  --max N               (search) how many results, default 5
  --since WINDOW        (stats) only the last 90m, 1h, 24h, 7d…
  --workspace PATH      (history clear) only this workspace's history

exit codes: 0 ok, 1 failed, 2 usage, 3 no daemon running, 4 already running, 5 bad config or socket path`;

export async function runCli(argv: readonly string[]): Promise<number> {
  const out = (text: string) => process.stdout.write(`${text}\n`);
  const err = (text: string) => process.stderr.write(`${text}\n`);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        socket: { type: "string" },
        config: { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        max: { type: "string" },
        demo: { type: "boolean", default: false },
        logs: { type: "string" },
        http: { type: "string" },
        root: { type: "string", multiple: true },
        watch: { type: "boolean", default: false },
        binary: { type: "string" },
        platform: { type: "string" },
        since: { type: "string" },
        workspace: { type: "string" },
      },
    });
  } catch (error) {
    err(`toolpool: ${(error as Error).message}\n\n${HELP}`);
    return ExitCode.Usage;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  const options: ClientCommandOptions = { json: values.json, out, err, ...(values.socket && { socket: values.socket }) };
  try {
    switch (command) {
      case "serve": {
        const { serve } = await import("./serve.ts");
        return await serve({ ...(values.socket && { socket: values.socket }), ...(values.config && { config: values.config }), demo: values.demo });
      }
      case "status":
        if (values.watch) return await (await import("./watch.ts")).watchStatus({ ...(values.socket && { socket: values.socket }) });
        return await (await commands()).status(options);
      case "tools":
        return await (await commands()).tools(options);
      case "call":
        return await (await commands()).call(options, rest[0], rest[1]);
      case "search": {
        const max = values.max === undefined ? undefined : Number(values.max);
        if (max !== undefined && (!Number.isInteger(max) || max < 1 || max > 100)) throw new UsageError("--max takes a whole number from 1 to 100");
        return await (await commands()).search(options, rest, max);
      }
      case "servers":
        return await (await commands()).servers(options, rest, values.logs);
      case "stats":
        return await (await import("./stats-command.ts")).stats(options, values.since);
      case "history":
        return await (await import("./stats-command.ts")).historyClear(options, rest, values.workspace);
      case "flags":
        return await (await import("./flags-command.ts")).flags(options);
      case "stop":
        return await (await commands()).stop(options);
      case "service":
        return await (await import("./service.ts")).serviceCommand(rest[0], {
          ...options,
          ...(values.config && { config: values.config }),
          ...(values.binary && { binary: values.binary }),
          ...(values.platform && { platform: values.platform }),
        });
      case "mcp": {
        // Loaded on demand: the MCP server SDK is only needed by this command.
        const { mcpCommand } = await import("./mcp.ts");
        return await mcpCommand({
          out,
          err,
          ...(values.socket && { socket: values.socket }),
          ...(values.config && { config: values.config }),
          ...(values.http !== undefined && { http: values.http }),
          ...(values.root && { roots: values.root }),
        });
      }
      case "version": {
        const info = buildInfo();
        out(values.json ? JSON.stringify(info) : `toolpool ${info.version} (${info.tier}; features: ${info.features.join(", ") || "none"})`);
        return ExitCode.Ok;
      }
      case undefined:
      case "help":
        out(HELP);
        return command === undefined && !values.help ? ExitCode.Usage : ExitCode.Ok;
      default:
        err(`toolpool: unknown command "${command}"\n\n${HELP}`);
        return ExitCode.Usage;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      err(`toolpool: ${error.message}`);
      return ExitCode.Usage;
    }
    err(`toolpool: ${error instanceof Error ? error.message : String(error)}`);
    return ExitCode.Failed;
  }
}
