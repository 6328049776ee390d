/** `toolpool serve`: load the config, start the daemon, wire signals, run until stopped. */
import { feature } from "bun:bundle";
import { builtinTools } from "../builtin/list.ts";
import type { CronService } from "../cron/cron-service.ts";
import { ConfigError, loadConfig, locateConfig } from "../config/load.ts";
import { Daemon } from "../daemon/daemon.ts";
import { createLogger } from "../runtime/logger.ts";
import { AlreadyRunningError } from "../daemon/socket-lock.ts";
import { resolveSocketPath, SocketPathError } from "../daemon/socket-path.ts";
import { isAbsolute, relative } from "node:path";
import { buildInfo } from "../build-info.ts";
import { ExitCode } from "./exit-codes.ts";
import { reportStartupProgress } from "./startup-progress.ts";

export interface ServeOptions {
  socket?: string;
  config?: string;
  /** Add the reference MCP servers from ./node_modules/.bin. */
  demo?: boolean;
}

export async function serve(options: ServeOptions): Promise<number> {
  const logger = createLogger("info");
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
    const builtins = builtinTools({
      ...(config.webFetch && { webFetch: config.webFetch }),
      ...(cron && { cronScheduler: cron.scheduler }),
      // Read at each call, so a SIGHUP reload's triggers apply.
      remoteTriggers: () => (running?.config() ?? config).remoteTriggers,
    });
    daemon = running = new Daemon({ socketPath, config, configSource, builtins, logger, demo: options.demo ?? false, ownsProcess: true, ...(cron && { cron }) });
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
    void reportStartupProgress({ servers: () => daemon.mcp()?.servers() ?? [], write: (text) => process.stdout.write(text) });
  }
  await daemon.stopped;
  return ExitCode.Ok;
}

/** How to run this same binary again from here: `./dist/toolpool-pro`, or `toolpool` from source. */
function invocation(): string {
  if (!buildInfo().compiled) return "bun src/main.ts";
  const path = relative(process.cwd(), process.execPath);
  return path.startsWith("..") || isAbsolute(path) ? process.execPath : path.includes("/") ? `./${path}` : path;
}
