/**
 * `toolpool service install | uninstall | status | print`: run the daemon as a systemd user unit
 * (Linux) or a launchd agent (macOS), for this binary (or `--binary PATH`), with `--config` and
 * `--socket` passed through and this shell's PATH captured. See docs/operations.md.
 */
import { ToolpoolClient } from "../client/client.ts";
import { resolveSocketPath } from "../daemon/socket-path.ts";
import { installService, renderServiceFile, serviceState, uninstallService, type ServiceHost, type ServiceOutcome } from "../service/service-manager.ts";
import { buildServiceSpec, currentPlatform, type ServicePlatform } from "../service/service-spec.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";

export interface ServiceCommandOptions {
  binary?: string;
  config?: string;
  socket?: string;
  /** `print` only: render for another platform. */
  platform?: string;
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Tests pass a host whose commands are recorded, not run. */
  host?: ServiceHost;
}

const USAGE = "usage: toolpool service install | uninstall | status | print [--binary PATH] [--config PATH] [--socket PATH] [--platform linux|darwin]";

export async function serviceCommand(action: string | undefined, options: ServiceCommandOptions): Promise<number> {
  const spec = buildServiceSpec({
    ...(options.binary && { binary: options.binary }),
    ...(options.config && { config: options.config }),
    ...(options.socket && { socket: options.socket }),
  });
  switch (action) {
    case "print": {
      options.out(renderServiceFile(choosePlatform(options.platform ?? options.host?.platform), spec).trimEnd());
      return ExitCode.Ok;
    }
    case "install":
      return report(await installService(hostFor(options), spec), options, "installed");
    case "uninstall":
      return report(await uninstallService(hostFor(options)), options, "uninstalled");
    case "status": {
      const state = await serviceState(hostFor(options), spec);
      const daemon = await daemonFacts(options.socket);
      if (options.json) {
        options.out(JSON.stringify({ ...state, daemon }));
        return ExitCode.Ok;
      }
      options.out(`service file: ${state.file} (${state.installed ? (state.current ? "installed, up to date" : "installed, differs from what install would write now") : "not installed"})`);
      for (const [key, value] of Object.entries(state.manager)) options.out(`${key}: ${value}`);
      options.out(daemon.running ? `daemon: running, pid ${daemon.pid}, ${daemon.version} (${daemon.tier}) on ${daemon.socket}` : `daemon: not running on ${daemon.socket}`);
      return ExitCode.Ok;
    }
    default:
      throw new UsageError(USAGE);
  }
}

function report(outcome: ServiceOutcome, options: ServiceCommandOptions, verb: string): number {
  if (options.json) {
    options.out(JSON.stringify(outcome));
  } else {
    for (const line of outcome.lines) options.out(line);
    for (const command of outcome.manual) options.out(`  ${command}`);
    if (outcome.ok && outcome.manual.length === 0) options.out(`toolpool service ${verb}`);
  }
  return outcome.ok ? ExitCode.Ok : ExitCode.Failed;
}

function choosePlatform(name: string | undefined): ServicePlatform {
  const platform = name ?? currentPlatform();
  if (platform === "linux" || platform === "darwin") return platform;
  throw new UsageError(`--platform takes linux or darwin${name ? `, not ${name}` : ` (this system is ${process.platform})`}`);
}

function hostFor(options: ServiceCommandOptions): ServiceHost {
  if (options.host) return options.host;
  if (options.platform) throw new UsageError("--platform is for print only: install, uninstall and status act on this system");
  return {
    platform: choosePlatform(undefined),
    env: process.env,
    uid: process.getuid?.() ?? 0,
    has: (program) => Bun.which(program) !== null,
    run: async (argv) => {
      const child = Bun.spawn([...argv], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
      const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      return { code, stdout, stderr };
    },
  };
}

async function daemonFacts(socket: string | undefined) {
  const socketPath = resolveSocketPath(socket);
  try {
    const client = await ToolpoolClient.connect(socketPath, 2_000);
    try {
      const status = await client.status();
      return { running: true, socket: socketPath, pid: status.pid, version: status.version, tier: status.tier };
    } finally {
      client.close();
    }
  } catch {
    return { running: false, socket: socketPath };
  }
}
