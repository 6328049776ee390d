/** `toolpool serve`: load the config, start the daemon, wire signals, run until stopped. */
import { feature } from "bun:bundle";
import { builtinTools } from "../builtin/list.ts";
import type { CronService } from "../cron/cron-service.ts";
import { ConfigError, loadConfig, locateConfig } from "../config/load.ts";
import { Daemon } from "../daemon/daemon.ts";
import { chooseLogFormat, createLogger, LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from "../runtime/logger.ts";
import { AlreadyRunningError } from "../daemon/socket-lock.ts";
import { resolveSocketPath, SocketPathError } from "../daemon/socket-path.ts";
import { claimDaemonRecord, daemonRecordPath } from "../client/daemon-record.ts";
import { DEMO_SERVER_NAMES } from "../mcp/demo-config.ts";
import { resolve } from "node:path";
import { ExitCode, UsageError } from "./exit-codes.ts";
import { invocation } from "./invocation.ts";
import { reportStartupProgress } from "./startup-progress.ts";
import { escapeTerminal } from "../runtime/terminal-text.ts";
import { createCommandSandbox } from "../sandbox/command-sandbox.ts";
import { daemonPrivatePaths } from "../sandbox/private-paths.ts";
import { BWRAP_PATH_VARIABLE, probeSandbox } from "../sandbox/sandbox-support.ts";
import { sandboxSettings } from "../sandbox/sandbox-settings.ts";

export interface ServeOptions {
  socket?: string;
  config?: string;
  /** Add the reference MCP servers from ./node_modules/.bin. */
  demo?: boolean;
  /** `--log-level`: wins over the config's logLevel, also after a reload. */
  logLevel?: string;
  /** `--log-format`: text or json; by default text on a terminal, JSON otherwise. */
  logFormat?: string;
}

export async function serve(options: ServeOptions): Promise<number> {
  const level = oneOf(options.logLevel, LOG_LEVELS, "--log-level");
  const format = chooseLogFormat(oneOf(options.logFormat, LOG_FORMATS, "--log-format"), process.stderr.isTTY === true);
  // In a terminal the start-up lines below already say what the start-up info events say: until the
  // servers are ready those events are not printed a second time (warnings and errors always are).
  let startingUp = process.stdout.isTTY === true && process.stderr.isTTY === true && options.logFormat === undefined && level === undefined;
  const logger = createLogger(
    level ?? "info",
    (line, at) => {
      // Text lines escape their fields themselves (and colour the level on purpose); JSON lines
      // leave C1 controls and bidi overrides raw, so on a terminal they are escaped too.
      if (!(startingUp && (at === "info" || at === "debug"))) process.stderr.write(format === "json" && process.stderr.isTTY ? escapeTerminal(line, { keepLines: true }) : line);
    },
    {
      format,
      color: format === "text" && process.stderr.isTTY === true && !process.env.NO_COLOR,
      pinned: level !== undefined,
    },
  );
  const socketPath = resolveSocketPath(options.socket);
  const configSource = locateConfig(options.config);
  let daemon: Daemon;
  let configRead: string | null = null;
  let demoShadowed: string[] = [];
  try {
    const { config, path } = await loadConfig(configSource);
    configRead = path === null ? null : resolve(path);
    logger.setLevel(config.logLevel);
    if (path) logger.info("config loaded", { path });
    // --demo beside a config: a config server named like a demo one wins; say so, once.
    demoShadowed = options.demo ? DEMO_SERVER_NAMES.filter((name) => Object.hasOwn(config.mcpServers, name)) : [];
    if (demoShadowed.length > 0) logger.warn("demo servers not added: the config has servers of these names", { servers: demoShadowed, config: path });
    let cron: CronService | undefined;
    if (feature("AGENT_TRIGGERS")) {
      cron = (require("../cron/cron-service.ts") as typeof import("../cron/cron-service.ts")).openCronService({
        onError: (error) => logger.error("cron fault", { error: String(error) }),
      });
    }
    let running: Daemon | undefined;
    const sandbox = createCommandSandbox({
      support: probeSandbox({ ...(process.env[BWRAP_PATH_VARIABLE] && { bwrapPath: process.env[BWRAP_PATH_VARIABLE] }) }),
      // Read at each call, so a SIGHUP reload's sandbox settings apply.
      settings: () => sandboxSettings(running?.core.config() ?? config),
      hidden: () => daemonPrivatePaths({ socketPath, configPath: path, recordPath: daemonRecordPath() }),
    });
    const builtins = builtinTools({
      sandbox,
      ...(config.webFetch && { webFetch: config.webFetch }),
      ...(cron && { cronScheduler: cron.scheduler }),
      // Read at each call, so a SIGHUP reload's triggers apply.
      remoteTriggers: () => (running?.core.config() ?? config).remoteTriggers,
    });
    daemon = running = new Daemon({ socketPath, config, configSource, builtins, logger, demo: options.demo ?? false, ownsProcess: true, sandbox, ...(cron && { cron }) });
    await daemon.start();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`toolpool: ${escapeTerminal(message, { keepLines: true })}\n`);
    if (error instanceof AlreadyRunningError) return ExitCode.AlreadyRunning;
    if (error instanceof ConfigError || error instanceof SocketPathError) return ExitCode.BadConfig;
    return ExitCode.Failed;
  }
  // Where this daemon listens, for clients whose environment would point elsewhere (a host that
  // passes only HOME and PATH). Best effort: the daemon serves without it.
  try {
    const keeper = claimDaemonRecord({ socket: socketPath, pid: process.pid, config: configRead, startedAt: new Date().toISOString() });
    if (keeper) logger.info("clients without XDG_RUNTIME_DIR keep finding the daemon already running", { pid: keeper.pid, socket: keeper.socket });
  } catch (error) {
    logger.warn("could not record the socket for clients without XDG_RUNTIME_DIR", { error: String(error) });
  }
  const onStopSignal = (signal: string) => void daemon.stop(signal);
  process.on("SIGTERM", () => onStopSignal("SIGTERM"));
  process.on("SIGINT", () => onStopSignal("SIGINT"));
  process.on("SIGHUP", () => void daemon.reload());
  if (process.stdout.isTTY) {
    const self = invocation();
    process.stdout.write(
      `toolpool ${daemon.info.tier} ${daemon.info.version} listening on ${socketPath}\n` +
        `  config: ${configRead ?? `none found at ${configSource.path ?? "(no path)"} — built-in defaults`}\n` +
        (options.demo ? `  demo: the reference MCP servers${demoShadowed.length > 0 ? ` except ${demoShadowed.join(", ")} (your config's server${demoShadowed.length === 1 ? " of that name is" : "s of those names are"} used instead)` : ""}\n` : "") +
        `  try: ${self} status | ${self} tools | ${self} call Read '{"file_path":"README.md"}'\n` +
        `  (set TOOLPOOL_SOCKET=${socketPath} or pass --socket when it is not the default)\n`,
    );
    // In a terminal, show MCP servers connecting; logs stay on stderr either way.
    void reportStartupProgress({ servers: () => daemon.core.mcp()?.servers() ?? [], write: (text) => process.stdout.write(escapeTerminal(text, { keepLines: true })) }).finally(() => {
      startingUp = false;
    });
  } else {
    startingUp = false;
  }
  // The record stays after a stop: clients check that its socket answers, and a bridge that must
  // start a daemon later takes the socket and config the user's daemon used from it.
  await daemon.stopped;
  return ExitCode.Ok;
}

function oneOf<T extends LogLevel | LogFormat>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} takes one of ${allowed.join(", ")} (got ${JSON.stringify(value.slice(0, 40))})`);
}
