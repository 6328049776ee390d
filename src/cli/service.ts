/**
 * `toolpool service install | uninstall | status | print`: run the daemon as a systemd user unit
 * (Linux) or a launchd agent (macOS), for this binary (or `--binary PATH`), with `--config` and
 * `--socket` passed through and this shell's PATH captured. See docs/operations.md.
 */
import { ToolpoolClient } from "../client/client.ts";
import { locateDaemon } from "../client/socket-discovery.ts";
import { installService, renderServiceFile, serviceState, uninstallService, type ServiceHost, type ServiceOutcome } from "../service/service-manager.ts";
import { buildServiceSpec, currentPlatform, serviceFilePath, type ServicePlatform } from "../service/service-spec.ts";
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
  /** Tests pass what the daemon on the socket says. */
  daemonFacts?: (socket: string | undefined) => Promise<DaemonFacts>;
}

export type DaemonFacts = { running: false; socket: string } | { running: true; socket: string; pid: number; version: string; tier: string };

const USAGE = "usage: toolpool service install | uninstall | status | print [--binary PATH] [--config PATH] [--socket PATH] [--platform linux|darwin]";

export async function serviceCommand(action: string | undefined, options: ServiceCommandOptions): Promise<number> {
  const spec = buildServiceSpec({
    ...(options.binary && { binary: options.binary }),
    ...(options.config && { config: options.config }),
    ...(options.socket && { socket: options.socket }),
  });
  switch (action) {
    case "print": {
      const platform = choosePlatform(options.platform ?? options.host?.platform);
      const text = renderServiceFile(platform, spec);
      if (options.json) options.out(JSON.stringify({ platform, file: serviceFilePath(platform, options.host?.env ?? process.env), text }));
      else options.out(text.trimEnd());
      return ExitCode.Ok;
    }
    case "install":
      return report(await installService(hostFor(options), spec), options, "installed");
    case "uninstall":
      return report(await uninstallService(hostFor(options)), options, "uninstalled");
    case "status": {
      const state = await serviceState(hostFor(options), spec);
      const facts = await (options.daemonFacts ?? daemonFacts)(options.socket);
      // The service's daemon is the one whose pid the service manager reports, nothing else.
      const daemon = facts.running ? { ...facts, service: state.mainPid !== undefined && state.mainPid === facts.pid } : facts;
      if (options.json) {
        options.out(JSON.stringify({ ...state, daemon }));
        return ExitCode.Ok;
      }
      options.out(`service file: ${state.file} (${state.installed ? (state.current ? "installed, up to date" : "installed, differs from what install would write now") : "not installed"})`);
      if (state.unreachable) options.out(`service manager: cannot be asked here: ${state.unreachable}`);
      for (const [key, value] of Object.entries(state.manager)) options.out(`${key}: ${value}`);
      if (!daemon.running) options.out(`daemon: not running on ${daemon.socket}`);
      else {
        const whose = "service" in daemon && daemon.service ? "run by the service" : `not the service's (started by hand or by toolpool mcp)${state.mainPid ? `; the service's daemon is pid ${state.mainPid}` : ""}`;
        options.out(`daemon: running, pid ${daemon.pid}, ${daemon.version} (${daemon.tier}) on ${daemon.socket} — ${whose}`);
      }
      return ExitCode.Ok;
    }
    default:
      throw new UsageError(USAGE);
  }
}

/** One shape for every outcome: what was done, why the rest was not, the commands still to run. */
function report(outcome: ServiceOutcome, options: ServiceCommandOptions, verb: string): number {
  if (options.json) {
    options.out(JSON.stringify(outcome));
  } else {
    for (const line of outcome.lines) options.out(line);
    for (const command of outcome.manual) options.out(`  ${command}`);
    if (outcome.ok && outcome.manual.length === 0) options.out(`toolpool service ${verb}`);
    else if (!outcome.ok) options.out(`toolpool service ${verb === "installed" ? "install" : "uninstall"}: not finished (exit 1); the file step is done, the commands above are left`);
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

async function daemonFacts(socket: string | undefined): Promise<DaemonFacts> {
  const { socketPath } = await locateDaemon({ flag: socket });
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
