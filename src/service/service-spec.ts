/**
 * What a background service runs, decided once at install time: the toolpool command (this binary
 * unless told otherwise), `serve` with the config and socket the user would get right now, and the
 * PATH of this shell — a service manager starts with a bare PATH, and MCP servers launched as
 * `npx …` or `uvx …` need the user's.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { selfCommand } from "./self-command.ts";

export const SYSTEMD_UNIT_NAME = "toolpool.service";
export const LAUNCHD_LABEL = "dev.toolpool.daemon";
/** Longer than the daemon's 5 s drain plus stopping MCP servers, so a stop is never cut short. */
export const STOP_TIMEOUT_SECONDS = 15;

export type ServicePlatform = "linux" | "darwin";

export interface ServiceSpec {
  /** The full command line: program, its prefix args (bun + script from source), `serve`, flags. */
  argv: string[];
  /** Captured PATH, verbatim. */
  path: string;
  workingDirectory: string;
  /** launchd only: where stdout/stderr go (systemd sends them to the journal). */
  logPath: string;
}

export interface SpecOptions {
  /** `--binary PATH`: a toolpool binary to run instead of this one. */
  binary?: string;
  config?: string;
  socket?: string;
  env?: NodeJS.ProcessEnv;
  /** The command that runs this toolpool (default: self). */
  self?: readonly string[];
}

export function buildServiceSpec(options: SpecOptions = {}): ServiceSpec {
  const env = options.env ?? process.env;
  const home = env.HOME || homedir();
  const command = options.binary ? [resolve(options.binary)] : [...(options.self ?? selfCommand())];
  // Flags win; otherwise what this shell's environment would make `toolpool serve` use.
  const config = options.config ?? env.TOOLPOOL_CONFIG;
  const socket = options.socket ?? env.TOOLPOOL_SOCKET;
  return {
    argv: [...command, "serve", ...(config ? ["--config", resolve(config)] : []), ...(socket ? ["--socket", resolve(socket)] : [])],
    path: env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    workingDirectory: home,
    logPath: join(home, "Library", "Logs", "toolpool.log"),
  };
}

export function currentPlatform(): ServicePlatform | undefined {
  if (process.platform === "linux") return "linux";
  if (process.platform === "darwin") return "darwin";
  return undefined;
}

/** Where the unit (Linux) or agent plist (macOS) is written. */
export function serviceFilePath(platform: ServicePlatform, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || homedir();
  if (platform === "darwin") return join(home, "Library", "LaunchAgents", `${LAUNCHD_LABEL}.plist`);
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "systemd", "user", SYSTEMD_UNIT_NAME);
}
