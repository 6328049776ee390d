/** The command line: one binary, one verb per job. `toolpool help` lists them. */
import { parseArgs } from "node:util";
import { buildInfo } from "../build-info.ts";
import type { ClientCommandOptions } from "./commands.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";
import { nearestKey } from "../config/issue-text.ts";
import { COMMAND_USAGE, commandOf, misplacedOptions } from "./usage.ts";
import { escapeTerminal } from "../runtime/terminal-text.ts";

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
  explain NAME          why a tool is or is not in a session's tools array (--session ID, --json)
  sessions              list the daemon's sessions and their ids (for explain --session)
  auth login SERVER     log in to an HTTP MCP server with OAuth (prints, and opens when it can, the URL)
  auth status [SERVER]  which HTTP MCP servers are logged in, and until when (never the tokens)
  auth logout SERVER    forget an HTTP MCP server's tokens
  trust PATH            approve a project's .toolpool.json (or .mcp.json) as it is now: its servers may run
  trust --list          the approved project files; trust --revoke PATH takes an approval back
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
  install               copy this binary to ~/.local/bin/toolpool (--prefix DIR: DIR/bin); uninstall removes it
  config import [FILE]  read the MCP servers of Claude Desktop, Claude Code, Cursor, VS Code, Windsurf,
                        Gemini CLI and Codex CLI and print (--write: merge) them as toolpool's mcpServers
  host add NAME         point an MCP host (claude-desktop, claude-code, cursor, vscode, windsurf,
                        gemini-cli, codex) at \`toolpool mcp\`; --move takes its other servers out;
                        host remove NAME undoes it (and puts moved servers back)

\`toolpool COMMAND --help\` shows one command's usage and options.

options:
  --socket PATH         the daemon's socket (default: $TOOLPOOL_SOCKET, $XDG_RUNTIME_DIR/toolpool/toolpool.sock;
                        clients then try the socket the running daemon recorded in ~/.local/state/toolpool)
  --config PATH         (serve) the config file (default: $TOOLPOOL_CONFIG, $XDG_CONFIG_HOME/toolpool/config.json)
  --demo                (serve) add the reference MCP servers from ./node_modules/.bin (everything, memory,
                        filesystem in a fresh temp dir, sequential-thinking)
  --logs NAME           (servers) show an MCP server's recent stderr
  --root DIR            (mcp) a workspace root for the bridge's sessions; repeatable
  --profile NAME        (mcp, tools) a tool profile from the config: only its tools (mcp: also $TOOLPOOL_PROFILE)
  --binary PATH         (service) the toolpool binary the service runs (default: this one)
  --platform NAME       (service print) linux or darwin (default: this system)
  --log-level LEVEL     (serve) debug | info | warn | error; wins over the config's logLevel
  --log-format FORMAT   (serve) text (one line per event; the default on a terminal) or json (the
                        default when stderr is not a terminal)
  --session ID          (explain) the session to explain for (default: a new session with the daemon's
                        defaults); \`toolpool sessions\` lists the ids
  --no-browser          (auth login) print the URL only (also: TOOLPOOL_NO_BROWSER=1)
  --json                machine-readable output
  --max N               (search) how many results, default 5
  --since WINDOW        (stats) only the last 90m, 1h, 24h, 7d…
  --workspace PATH      (history clear) only this workspace's history

exit codes: 0 ok, 1 failed, 2 usage, 3 no daemon running, 4 already running, 5 bad config or socket path`;

/** Options that take a value (so `--socket serve` is not read as the command `serve`). */
const VALUED_OPTIONS: ReadonlySet<string> = new Set(["socket", "config", "max", "logs", "http", "root", "binary", "platform", "prefix", "tier", "file", "log-format"]);
/** Every option the usage table knows of; see misplacedOptions. */
const KNOWN_OPTIONS: ReadonlySet<string> = new Set([...VALUED_OPTIONS, "json", "demo", "watch", "write", "move"]);

export async function runCli(argv: readonly string[]): Promise<number> {
  // Every printer's text ends here: what files, configs and servers put in it is shown escaped.
  const out = (text: string) => process.stdout.write(`${escapeTerminal(text, { keepLines: true })}\n`);
  const err = (text: string) => process.stderr.write(`${escapeTerminal(text, { keepLines: true })}\n`);
  // `--help` wins even where an option would take it as its value (`mcp --http --help`).
  const helpAsked = argv.findIndex((word) => word === "--help" || word === "-h");
  if (helpAsked !== -1 && !argv.slice(0, helpAsked).includes("--")) {
    const named = commandOf(argv.slice(0, helpAsked), VALUED_OPTIONS) ?? commandOf(argv, VALUED_OPTIONS);
    const entry = named && named !== "help" ? COMMAND_USAGE[named] : undefined;
    if (named === undefined || named === "help") {
      out(HELP);
      return ExitCode.Ok;
    }
    out(entry?.usage ?? HELP);
    return entry ? ExitCode.Ok : ExitCode.Usage;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      tokens: true,
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
        "log-level": { type: "string" },
        "log-format": { type: "string" },
        session: { type: "string" },
        prefix: { type: "string" },
        write: { type: "boolean", default: false },
        tier: { type: "string" },
        move: { type: "boolean", default: false },
        file: { type: "string" },
        "no-browser": { type: "boolean", default: false },
        version: { type: "boolean", short: "V", default: false },
        profile: { type: "string" },
        list: { type: "boolean", default: false },
        revoke: { type: "boolean", default: false },
        since: { type: "string" },
        workspace: { type: "string" },
      },
    });
  } catch (error) {
    // Name the option and show the usage of the command it was given to, not the whole list.
    const named = commandOf(argv, VALUED_OPTIONS);
    const first = (error as Error).message.split(". To specify a positional")[0];
    const entry = named ? COMMAND_USAGE[named] : undefined;
    const unknown = /^Unknown option '--?([^']+)'/.exec(first ?? "")?.[1];
    const near = unknown && entry ? nearestKey(unknown, entry.options) : undefined;
    err(`toolpool${entry ? ` ${named}` : ""}: ${first}${near ? ` (did you mean --${near}?)` : ""}\n\n${entry?.usage ?? HELP}`);
    return ExitCode.Usage;
  }
  const { values, positionals, tokens } = parsed;
  const [command, ...rest] = positionals;
  const usage = command === undefined ? undefined : COMMAND_USAGE[command];
  // `COMMAND --help` answers before anything runs: `serve --help` must start no daemon.
  if (values.help && command !== undefined && command !== "help") {
    out(usage?.usage ?? HELP);
    return usage ? ExitCode.Ok : ExitCode.Usage;
  }
  const given = [...new Set(tokens.flatMap((token) => (token.kind === "option" ? [token.name] : [])))];
  const misplaced = command === undefined ? [] : misplacedOptions(command, given, KNOWN_OPTIONS);
  if (misplaced.length > 0) {
    err(`toolpool ${command}: ${misplaced.map((name) => `--${name}`).join(", ")} ${misplaced.length === 1 ? "is not an option" : "are not options"} of this command\n\n${usage?.usage ?? HELP}`);
    return ExitCode.Usage;
  }
  // `toolpool --version` / `-V`, as most tools answer it: the same line as `toolpool version`.
  if (values.version && (command === undefined || command === "version")) return printVersion(out, values.json);
  const options: ClientCommandOptions = { json: values.json, out, err, ...(values.socket && { socket: values.socket }) };
  try {
    switch (command) {
      case "serve": {
        const { serve } = await import("./serve.ts");
        return await serve({
          ...(values.socket && { socket: values.socket }),
          ...(values.config && { config: values.config }),
          demo: values.demo,
          ...(values["log-level"] !== undefined && { logLevel: values["log-level"] }),
          ...(values["log-format"] !== undefined && { logFormat: values["log-format"] }),
        });
      }
      case "status":
        if (values.watch && values.json) throw new UsageError("--watch is a live view for a terminal; for scripts, run status --json (one snapshot) repeatedly");
        if (values.watch) return await (await import("./watch.ts")).watchStatus({ ...(values.socket && { socket: values.socket }) });
        return await (await commands()).status(options);
      case "tools":
        return await (await commands()).tools(options, values.profile);
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
      case "trust":
        return await (await import("./trust-command.ts")).trustCommand({ ...options, list: values.list, revoke: values.revoke }, rest);
      case "auth":
        return await (await import("./auth-command.ts")).authCommand({ ...options, noBrowser: values["no-browser"] }, rest);
      case "stop":
        return await (await commands()).stop(options);
      case "sessions":
        return await (await import("./sessions-command.ts")).sessions(options);
      case "explain":
        return await (await import("./explain-command.ts")).explain(options, rest[0], values.session);
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
          ...((values.profile ?? process.env.TOOLPOOL_PROFILE) && { profile: values.profile ?? process.env.TOOLPOOL_PROFILE }),
        });
      }
      case "version":
        return printVersion(out, values.json);
      case "install":
      case "uninstall": {
        const { installCommand, uninstallCommand } = await import("./install.ts");
        const run = command === "install" ? installCommand : uninstallCommand;
        return await run({ ...options, ...(values.prefix && { prefix: values.prefix }) });
      }
      case "config":
        return await (await import("./config-command.ts")).configCommand(rest, { ...options, write: values.write, ...(values.config && { config: values.config }) });
      case "host":
        return await (await import("./host-command.ts")).hostCommand(rest, {
          ...options,
          move: values.move,
          ...(values.config && { config: values.config }),
          ...(values.tier && { tier: values.tier }),
          ...(values.file && { file: values.file }),
        });
      case "help":
        if (rest[0] && COMMAND_USAGE[rest[0]]) {
          out(COMMAND_USAGE[rest[0]]!.usage);
          return ExitCode.Ok;
        }
        out(HELP);
        return ExitCode.Ok;
      case undefined:
        out(HELP);
        return command === undefined && !values.help ? ExitCode.Usage : ExitCode.Ok;
      default: {
        const near = nearestKey(command, Object.keys(COMMAND_USAGE));
        // The suggestion, not the whole command list after it (`toolpool help` prints that).
        err(`toolpool: unknown command "${command}"${near ? ` (did you mean "${near}"?)` : ""}; \`toolpool help\` lists the commands`);
        return ExitCode.Usage;
      }
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

function printVersion(out: (text: string) => void, json: boolean): number {
  const info = buildInfo();
  out(json ? JSON.stringify(info) : `toolpool ${info.version} (${info.tier}; features: ${info.features.join(", ") || "none"})`);
  return ExitCode.Ok;
}
