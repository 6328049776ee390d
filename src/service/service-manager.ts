/**
 * Installing, removing and inspecting the background service: write (or remove) the unit/agent
 * file, then ask systemd or launchd to act on it. The commands run through an injected runner, so
 * tests see exactly what would run without touching the machine's service manager; when the
 * manager is missing or refuses (no user bus in a container, no GUI session over ssh) the answer
 * says what to run by hand.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { renderLaunchdPlist } from "./launchd-plist.ts";
import { LAUNCHD_LABEL, serviceFilePath, SYSTEMD_UNIT_NAME, type ServicePlatform, type ServiceSpec } from "./service-spec.ts";
import { renderSystemdUnit } from "./systemd-unit.ts";

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ServiceHost {
  platform: ServicePlatform;
  env: NodeJS.ProcessEnv;
  uid: number;
  /** Runs a command; never throws for a non-zero exit. */
  run: (argv: readonly string[]) => Promise<CommandResult>;
  /** Whether a program is on PATH. */
  has: (program: string) => boolean;
}

export interface ServiceOutcome {
  /** The service manager did its part too: the service is running (install) or gone (uninstall). */
  ok: boolean;
  file: string;
  /** `unavailable`: no systemctl/launchctl, or no user session for it to act in. */
  manager?: "available" | "unavailable";
  /** What happened, one line each, for the user. */
  lines: string[];
  /** Commands that did not run (or failed) and that the user should run. */
  manual: string[];
}

/**
 * Whether the user's service manager can act from here: systemctl without a user bus (containers,
 * `su`, ssh without lingering) and launchctl without a GUI session (ssh) fail every command the
 * same way, so ask once and answer once instead of failing step by step.
 */
export async function managerReachable(host: ServiceHost): Promise<{ reachable: boolean; reason?: string }> {
  const program = host.platform === "darwin" ? "launchctl" : "systemctl";
  if (!host.has(program)) return { reachable: false, reason: `${program} is not installed here` };
  const probe = host.platform === "darwin" ? ["launchctl", "print", `gui/${host.uid}`] : ["systemctl", "--user", "show-environment"];
  const result = await host.run(probe);
  if (result.code === 0) return { reachable: true };
  const said = (result.stderr.trim() || result.stdout.trim()).split("\n")[0] ?? "";
  const session = host.platform === "darwin" ? "no GUI login session for launchd's gui domain" : "no systemd user session";
  return { reachable: false, reason: `${session} (${probe.join(" ")}: ${said || `exit ${result.code}`})` };
}

/** What to do when the manager cannot act here: the exact commands, and the way without a service. */
function unreachableAdvice(host: ServiceHost, reason: string, action: "install" | "uninstall"): string[] {
  const lines = [`the service manager cannot act here: ${reason}`];
  if (host.platform === "linux") {
    lines.push(
      action === "install"
        ? "so the service is not enabled; in a login session with a user manager (or after `sudo loginctl enable-linger $USER`), run:"
        : "if the service was enabled in another session, run there:",
    );
  } else lines.push(action === "install" ? "so the agent is not loaded; in a GUI login session, run:" : "if the agent was loaded in a GUI session, run there:");
  return lines;
}

export function renderServiceFile(platform: ServicePlatform, spec: ServiceSpec): string {
  return platform === "darwin" ? renderLaunchdPlist(spec) : renderSystemdUnit(spec);
}

export async function installService(host: ServiceHost, spec: ServiceSpec): Promise<ServiceOutcome> {
  const file = serviceFilePath(host.platform, host.env);
  const text = renderServiceFile(host.platform, spec);
  const previous = readText(file);
  mkdirSync(dirname(file), { recursive: true });
  if (host.platform === "darwin") mkdirSync(dirname(spec.logPath), { recursive: true });
  writeFileSync(file, text, { mode: 0o644 });
  // `enable --now` leaves a running daemon on its old command line: a changed unit needs a restart.
  const changed = previous !== undefined && previous !== text;
  const steps = host.platform === "darwin" ? launchdInstall(host, file) : systemdInstall(changed);
  const wrote = previous === text ? `${file} is already up to date` : `wrote ${file}`;
  const manager = await managerReachable(host);
  if (!manager.reachable) {
    const manual = steps.filter((step) => !step.optional).map((step) => step.argv.join(" "));
    return { ok: false, file, manager: "unavailable", lines: [wrote, ...unreachableAdvice(host, manager.reason!, "install")], manual: [...manual, ...(host.platform === "linux" ? ["(or, without a service: toolpool serve)"] : [])] };
  }
  return { ...(await runSteps(host, file, [wrote], steps)), manager: "available" };
}

export async function uninstallService(host: ServiceHost): Promise<ServiceOutcome> {
  const file = serviceFilePath(host.platform, host.env);
  const steps =
    host.platform === "darwin"
      ? [{ argv: ["launchctl", "bootout", `gui/${host.uid}/${LAUNCHD_LABEL}`], optional: true }]
      : [{ argv: ["systemctl", "--user", "disable", "--now", SYSTEMD_UNIT_NAME], optional: true }];
  const existed = readText(file) !== undefined;
  const manager = await managerReachable(host);
  if (!manager.reachable) {
    rmSync(file, { force: true });
    // Nothing was installed: nothing can be running, so there is nothing left to do.
    if (!existed) return { ok: true, file, manager: "unavailable", lines: [`${file} was not installed`], manual: [] };
    return { ok: false, file, manager: "unavailable", lines: [`removed ${file}`, ...unreachableAdvice(host, manager.reason!, "uninstall")], manual: steps.map((step) => step.argv.join(" ")) };
  }
  const outcome: ServiceOutcome = { ...(await runSteps(host, file, [], steps)), manager: "available" };
  rmSync(file, { force: true });
  outcome.lines.push(existed ? `removed ${file}` : `${file} was not installed`);
  if (host.platform === "linux") {
    const reload = await runSteps(host, file, [], [{ argv: ["systemctl", "--user", "daemon-reload"], optional: true }]);
    outcome.lines.push(...reload.lines);
  }
  return outcome;
}

export interface ServiceState {
  platform: ServicePlatform;
  file: string;
  installed: boolean;
  /** The installed file is exactly what `print` would write now. */
  current: boolean;
  /** What the service manager says (`active`, `enabled`, launchctl's state line), when it answers. */
  manager: Record<string, string>;
  /** Why the manager could not be asked, when it could not. */
  unreachable?: string;
  /** The pid of the daemon the service manager runs, when it runs one. */
  mainPid?: number;
}

export async function serviceState(host: ServiceHost, spec: ServiceSpec): Promise<ServiceState> {
  const file = serviceFilePath(host.platform, host.env);
  const text = readText(file);
  const manager: Record<string, string> = {};
  const reach = await managerReachable(host);
  let mainPid: number | undefined;
  if (reach.reachable && host.platform === "linux") {
    manager.active = (await host.run(["systemctl", "--user", "is-active", SYSTEMD_UNIT_NAME])).stdout.trim() || "unknown";
    manager.enabled = (await host.run(["systemctl", "--user", "is-enabled", SYSTEMD_UNIT_NAME])).stdout.trim() || "unknown";
    const pid = Number((await host.run(["systemctl", "--user", "show", "--property=MainPID", "--value", SYSTEMD_UNIT_NAME])).stdout.trim());
    if (Number.isInteger(pid) && pid > 0) mainPid = pid;
  }
  if (reach.reachable && host.platform === "darwin") {
    const printed = await host.run(["launchctl", "print", `gui/${host.uid}/${LAUNCHD_LABEL}`]);
    manager.state = printed.code === 0 ? (/^\s*state = (.*)$/m.exec(printed.stdout)?.[1] ?? "loaded") : "not loaded";
    const pid = Number(/^\s*pid = (\d+)$/m.exec(printed.stdout)?.[1]);
    if (printed.code === 0 && Number.isInteger(pid) && pid > 0) mainPid = pid;
  }
  return {
    platform: host.platform,
    file,
    installed: text !== undefined,
    current: text === renderServiceFile(host.platform, spec),
    manager,
    ...(!reach.reachable && { unreachable: reach.reason! }),
    ...(mainPid !== undefined && { mainPid }),
  };
}

interface Step {
  argv: string[];
  /** A failure here is expected sometimes (nothing loaded yet) and does not fail the whole. */
  optional?: boolean;
}

function systemdInstall(changed: boolean): Step[] {
  return [
    { argv: ["systemctl", "--user", "daemon-reload"] },
    { argv: ["systemctl", "--user", "enable", "--now", SYSTEMD_UNIT_NAME] },
    ...(changed ? [{ argv: ["systemctl", "--user", "restart", SYSTEMD_UNIT_NAME] }] : []),
  ];
}

function launchdInstall(host: ServiceHost, file: string): Step[] {
  // Reinstalling replaces a loaded agent: unload the old one first (fails harmlessly when none).
  return [
    { argv: ["launchctl", "bootout", `gui/${host.uid}/${LAUNCHD_LABEL}`], optional: true },
    { argv: ["launchctl", "bootstrap", `gui/${host.uid}`, file] },
  ];
}

async function runSteps(host: ServiceHost, file: string, lines: string[], steps: readonly Step[]): Promise<ServiceOutcome> {
  const outcome: ServiceOutcome = { ok: true, file, lines, manual: [] };
  const program = steps[0]?.argv[0];
  if (program && !host.has(program)) {
    outcome.lines.push(`${program} is not available here; run these yourself where it is:`);
    outcome.manual.push(...steps.filter((step) => !step.optional).map((step) => step.argv.join(" ")));
    return outcome;
  }
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index]!;
    const result = await host.run(step.argv);
    if (result.code === 0) {
      outcome.lines.push(`ran: ${step.argv.join(" ")}`);
      continue;
    }
    if (step.optional) continue;
    outcome.ok = false;
    outcome.lines.push(`failed (exit ${result.code}): ${step.argv.join(" ")}${result.stderr.trim() ? ` — ${result.stderr.trim()}` : ""}`);
    outcome.manual.push(...steps.slice(index).filter((rest) => !rest.optional).map((rest) => rest.argv.join(" ")));
    break;
  }
  return outcome;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
