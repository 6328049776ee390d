/** `toolpool serve`: load the config, start the daemon, wire signals, run until stopped. */
import { feature } from "bun:bundle";
import { builtinTools } from "../builtin/list.ts";
import type { CronService } from "../cron/cron-service.ts";
import { ConfigError, loadConfig, locateConfig } from "../config/load.ts";
import { Daemon } from "../daemon/daemon.ts";
import { chooseLogFormat, createLogger, LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from "../runtime/logger.ts";
import { AlreadyRunningError } from "../daemon/socket-lock.ts";
import { resolveSocketPath, SocketPathError } from "../daemon/socket-path.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";
import { invocation } from "./invocation.ts";
import { reportStartupProgress } from "./startup-progress.ts";
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
      if (!(startingUp && (at === "info" || at === "debug"))) process.stderr.write(line);
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
  try {
    const { config, path } = await loadConfig(configSource);
    logger.setLevel(config.logLevel);
    if (path) logger.info("config loaded", { path });
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
      hidden: () => daemonPrivatePaths({ socketPath, configPath: path }),
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
    process.stderr.write(`toolpool: ${message}\n`);
    if (error instanceof AlreadyRunningError) return ExitCode.AlreadyRunning;
    if (error instanceof ConfigError || error instanceof SocketPathError) return ExitCode.BadConfig;
    return ExitCode.Failed;
  }
  const onStopSignal = (signal: string) => void daemon.stop(signal);
  process.on("SIGTERM", () => onStopSignal("SIGTERM"));
  process.on("SIGINT", () => onStopSignal("SIGINT"));
  process.on("SIGHUP", () => void daemon.reload());
  if (process.stdout.isTTY) {
    const self = invocation();
    process.stdout.write(
      `toolpool ${daemon.info.tier} ${daemon.info.version} listening on ${socketPath}\n` +
        `  try: ${self} status | ${self} tools | ${self} call Read '{"file_path":"README.md"}'\n` +
        `  (set TOOLPOOL_SOCKET=${socketPath} or pass --socket when it is not the default)\n`,
    );
    // In a terminal, show MCP servers connecting; logs stay on stderr either way.
    void reportStartupProgress({ servers: () => daemon.core.mcp()?.servers() ?? [], write: (text) => process.stdout.write(text) }).finally(() => {
      startingUp = false;
    });
  } else {
    startingUp = false;
  }
  await daemon.stopped;
  return ExitCode.Ok;
}

function oneOf<T extends LogLevel | LogFormat>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} takes one of ${allowed.join(", ")} (got ${JSON.stringify(value.slice(0, 40))})`);
}
