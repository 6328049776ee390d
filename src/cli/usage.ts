/**
 * Each command's usage and the options it takes, so `toolpool COMMAND --help` answers without
 * running anything (`serve --help` must not start a daemon) and a misplaced option is named with
 * the usage of the command it was given to.
 */

export interface CommandUsage {
  usage: string;
  /** Options this command reads, beyond the ones every command takes (--help). */
  options: readonly string[];
}

const SOCKET = "  --socket PATH       the daemon's socket (default: $TOOLPOOL_SOCKET, $XDG_RUNTIME_DIR/toolpool/toolpool.sock, then the one the running daemon recorded)";
const JSON_OPTION = "  --json              machine-readable output";

export const COMMAND_USAGE: Readonly<Record<string, CommandUsage>> = {
  serve: {
    usage: [
      "usage: toolpool serve [--config PATH] [--socket PATH] [--demo] [--log-level LEVEL] [--log-format text|json]",
      "run the daemon in the foreground (Ctrl-C or `toolpool stop` ends it)",
      "  --config PATH       the config file (default: $TOOLPOOL_CONFIG, $XDG_CONFIG_HOME/toolpool/config.json)",
      SOCKET,
      "  --demo              add the reference MCP servers from ./node_modules/.bin",
      "  --log-level LEVEL   debug, info, warn or error; wins over the config's logLevel, also after a reload",
      "  --log-format FORMAT text (one line a person reads; the default on a terminal) or json (the default otherwise)",
    ].join("\n"),
    options: ["config", "socket", "demo", "log-level", "log-format"],
  },
  status: {
    usage: ["usage: toolpool status [--watch] [--json] [--socket PATH]", "show the running daemon's state", "  --watch             a live view, redrawn every second (q or Ctrl-C quits)", JSON_OPTION, SOCKET].join("\n"),
    options: ["watch", "json", "socket"],
  },
  tools: {
    usage: ["usage: toolpool tools [--profile NAME] [--json] [--socket PATH]", "list the tool pool: core vs deferred, source, read-only", "  --profile NAME      only the tools a profile of the config leaves", JSON_OPTION, SOCKET].join("\n"),
    options: ["profile", "json", "socket"],
  },
  call: {
    usage: ["usage: toolpool call NAME [JSON] [--json] [--socket PATH]", `run one tool, e.g. toolpool call Read '{"file_path":"README.md"}'`, JSON_OPTION, SOCKET].join("\n"),
    options: ["json", "socket"],
  },
  search: {
    usage: ["usage: toolpool search QUERY [--max N] [--json] [--socket PATH]", "search the pool as ToolSearch does (keywords, select:A,B, discover:words)", "  --max N             how many results, 1-100 (default 5)", JSON_OPTION, SOCKET].join("\n"),
    options: ["max", "json", "socket"],
  },
  servers: {
    usage: ["usage: toolpool servers [--logs NAME] [--json] | toolpool servers restart NAME", "list the MCP servers: state, reason, tools, pid, restarts", "  --logs NAME         show an MCP server's recent stderr", JSON_OPTION, SOCKET].join("\n"),
    options: ["logs", "json", "socket"],
  },
  flags: { usage: ["usage: toolpool flags [--json] [--socket PATH]", "show runtime flags: value, source (default/file/remote/cached), payload age", JSON_OPTION, SOCKET].join("\n"), options: ["json", "socket"] },
  sessions: {
    usage: ["usage: toolpool sessions [--json] [--socket PATH]", "list the daemon's sessions (id, attached or detached, client, delivery, calls, last active): the ids explain --session takes", JSON_OPTION, SOCKET].join("\n"),
    options: ["json", "socket"],
  },
  stop: { usage: ["usage: toolpool stop [--json] [--socket PATH]", "stop the running daemon", JSON_OPTION, SOCKET].join("\n"), options: ["json", "socket"] },
  mcp: {
    usage: [
      "usage: toolpool mcp [--http HOST:PORT] [--root DIR]... [--profile NAME] [--config PATH] [--socket PATH]",
      "an MCP server on stdio (or Streamable HTTP on loopback) bridged to the daemon; starts one if none runs",
      "  --http HOST:PORT    serve Streamable HTTP on loopback instead of stdio (e.g. 127.0.0.1:8765)",
      "  --root DIR          a workspace root for the bridge's sessions; repeatable",
      "  --profile NAME      a tool profile of the config: the host sees only its tools (also: $TOOLPOOL_PROFILE)",
      "  --config PATH       the config a daemon started in the background reads",
      SOCKET,
    ].join("\n"),
    options: ["http", "root", "config", "socket", "profile"],
  },
  service: {
    usage: [
      "usage: toolpool service install | uninstall | status | print [--binary PATH] [--config PATH] [--socket PATH] [--platform linux|darwin] [--json]",
      "the background service: a systemd user unit on Linux, a launchd agent on macOS",
      "  --binary PATH       the toolpool binary the service runs (default: this one)",
      "  --platform NAME     (print) linux or darwin (default: this system)",
      JSON_OPTION,
    ].join("\n"),
    options: ["binary", "config", "socket", "platform", "json"],
  },
  version: { usage: ["usage: toolpool version [--json]", "print version, tier and compiled features", JSON_OPTION].join("\n"), options: ["json"] },
  install: {
    usage: [
      "usage: toolpool install [--prefix DIR] [--json]",
      "copy this binary to ~/.local/bin/toolpool (or DIR/bin/toolpool) and say how to put it on PATH",
      "  --prefix DIR        install into DIR/bin instead of ~/.local/bin",
      JSON_OPTION,
    ].join("\n"),
    options: ["prefix", "json"],
  },
  uninstall: {
    usage: ["usage: toolpool uninstall [--prefix DIR] [--json]", "remove the binary `toolpool install` put in ~/.local/bin (or DIR/bin)", "  --prefix DIR        the prefix given to install", JSON_OPTION].join("\n"),
    options: ["prefix", "json"],
  },
  config: {
    usage: [
      "usage: toolpool config import [FILE...] [--write] [--json] [--config PATH]",
      "read the MCP servers of Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Gemini CLI and Codex CLI (their default",
      "places on this system, or the FILEs named) and print them as toolpool's mcpServers; exits 1 when",
      "it found no server (it says where it looked, and which places it did not read)",
      "  --write             merge them into the config file (the old file is backed up first)",
      "  --config PATH       the config file --write merges into (default: $TOOLPOOL_CONFIG, $XDG_CONFIG_HOME/toolpool/config.json)",
      JSON_OPTION,
    ].join("\n"),
    options: ["write", "json", "config"],
  },
  host: {
    usage: [
      "usage: toolpool host add NAME [--tier TIER] [--move] [--file PATH] [--config PATH] [--json] | toolpool host remove NAME [--file PATH]",
      "point an MCP host at toolpool: writes a `toolpool mcp` server entry into its config (backed up first)",
      "hosts: claude-desktop, claude-code, cursor, vscode, windsurf, gemini-cli, codex (no --move for codex's TOML)",
      "  --tier TIER         use the installed toolpool-TIER binary beside this one (lite, standard, pro)",
      "  --move              also take the host's other servers out of it (import them first with config import --write)",
      "  --file PATH         the host's config file (default: its usual place on this system)",
      "  --config PATH       (--move) the toolpool config the host's servers must already be in",
      JSON_OPTION,
    ].join("\n"),
    options: ["tier", "move", "file", "config", "json"],
  },
  explain: {
    usage: [
      "usage: toolpool explain NAME [--session ID] [--json] [--socket PATH]",
      "why a tool is or is not in a session's tools array right now, as the chain of decisions",
      "  --session ID        the session to explain for (default: a new session with the daemon's defaults; `toolpool sessions` lists ids)",
      JSON_OPTION,
      SOCKET,
    ].join("\n"),
    options: ["session", "json", "socket"],
  },
  stats: {
    usage: [
      "usage: toolpool stats [--since 90m|1h|24h|7d] [--json] [--socket PATH]",
      "what the pool did: searches, zero-result queries, search-to-call conversion, calls per tool and server, servers, tokens",
      "  --since SPAN        only what happened in this span (default: everything kept)",
      JSON_OPTION,
      SOCKET,
    ].join("\n"),
    options: ["since", "json", "socket"],
  },
  history: {
    usage: ["usage: toolpool history clear [--workspace PATH] [--json]", "delete the usage history (all of it, or one workspace's); works without a daemon", "  --workspace PATH    only this workspace's history", JSON_OPTION, SOCKET].join("\n"),
    options: ["workspace", "json", "socket"],
  },
  auth: {
    usage: [
      "usage: toolpool auth login SERVER [--no-browser] | auth status [SERVER] | auth logout SERVER [--json] [--socket PATH]",
      "OAuth for HTTP MCP servers: log in (prints, and opens when it can, the authorization URL), see logins, forget tokens",
      "  --no-browser        (login) print the URL only (also: TOOLPOOL_NO_BROWSER=1)",
      JSON_OPTION,
      SOCKET,
    ].join("\n"),
    options: ["no-browser", "json", "socket"],
  },
  trust: {
    usage: [
      "usage: toolpool trust PATH | trust --list | trust --revoke PATH [--json] [--socket PATH]",
      "approve a project's .toolpool.json (or .mcp.json) as it is now, so its servers may run",
      "  --list              the approved project files",
      "  --revoke            take the approval of PATH back",
      JSON_OPTION,
      SOCKET,
    ].join("\n"),
    options: ["list", "revoke", "json", "socket"],
  },
  help: { usage: "usage: toolpool help [COMMAND]", options: [] },
};

/** The command a command line names: its first word that is not an option or an option's value. */
export function commandOf(argv: readonly string[], valued: ReadonlySet<string>): string | undefined {
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === "--") return argv[index + 1];
    if (!word.startsWith("-")) return word;
    if (!word.includes("=") && valued.has(word.replace(/^-+/, ""))) index++;
  }
  return undefined;
}

/**
 * Options given that this command does not take. Only options in `known` are judged, so an option
 * another command added (and this table has not heard of) is left to that command.
 */
export function misplacedOptions(command: string, given: readonly string[], known: ReadonlySet<string>): string[] {
  const usage = COMMAND_USAGE[command];
  if (!usage) return [];
  return given.filter((name) => name !== "help" && known.has(name) && !usage.options.includes(name));
}
