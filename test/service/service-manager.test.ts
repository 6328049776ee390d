import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installService, renderServiceFile, serviceState, uninstallService, type CommandResult, type ServiceHost } from "../../src/service/service-manager.ts";
import { buildServiceSpec, type ServicePlatform } from "../../src/service/service-spec.ts";

/** A host whose commands are recorded and answered from a table, never run. */
function fakeHost(platform: ServicePlatform, options: { programs?: string[]; answers?: Record<string, Partial<CommandResult>> } = {}) {
  const home = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "home-"));
  const ran: string[] = [];
  const programs = new Set(options.programs ?? ["systemctl", "launchctl"]);
  const host: ServiceHost = {
    platform,
    env: { HOME: home },
    uid: 501,
    has: (program) => programs.has(program),
    run: async (argv) => {
      const line = argv.join(" ");
      ran.push(line);
      return { code: 0, stdout: "", stderr: "", ...options.answers?.[line] };
    },
  };
  return { host, ran, home };
}

const spec = buildServiceSpec({ env: { HOME: "/home/ada", PATH: "/usr/bin:/bin" }, binary: "/opt/toolpool-pro", socket: "/run/tp.sock" });

describe("toolpool service on Linux (systemd user unit)", () => {
  test("install writes the unit, reloads and enables it now; a second install of the same unit changes nothing", async () => {
    const { host, ran, home } = fakeHost("linux");
    const outcome = await installService(host, spec);
    const file = join(home, ".config", "systemd", "user", "toolpool.service");
    expect(outcome).toEqual({
      ok: true,
      file,
      manager: "available",
      lines: [`wrote ${file}`, "ran: systemctl --user daemon-reload", "ran: systemctl --user enable --now toolpool.service"],
      manual: [],
    });
    expect(readFileSync(file, "utf8")).toBe(renderServiceFile("linux", spec));
    expect((await installService(host, spec)).lines[0]).toBe(`${file} is already up to date`);
    expect(ran).toEqual([
      "systemctl --user show-environment",
      "systemctl --user daemon-reload",
      "systemctl --user enable --now toolpool.service",
      "systemctl --user show-environment",
      "systemctl --user daemon-reload",
      "systemctl --user enable --now toolpool.service",
    ]);
  });

  test("a changed unit (another binary) is restarted so the running daemon picks it up", async () => {
    const { host, ran } = fakeHost("linux");
    await installService(host, spec);
    ran.length = 0;
    await installService(host, { ...spec, argv: ["/opt/other", "serve"] });
    expect(ran).toEqual(["systemctl --user show-environment", "systemctl --user daemon-reload", "systemctl --user enable --now toolpool.service", "systemctl --user restart toolpool.service"]);
  });

  test("without systemctl the unit is still written; not finished (ok false), the commands to run named", async () => {
    const { host, ran, home } = fakeHost("linux", { programs: [] });
    const outcome = await installService(host, spec);
    const file = join(home, ".config", "systemd", "user", "toolpool.service");
    expect(ran).toEqual([]);
    expect(outcome).toEqual({
      ok: false,
      file,
      manager: "unavailable",
      lines: [
        `wrote ${file}`,
        "the service manager cannot act here: systemctl is not installed here",
        "so the service is not enabled; in a login session with a user manager (or after `sudo loginctl enable-linger $USER`), run:",
      ],
      manual: ["systemctl --user daemon-reload", "systemctl --user enable --now toolpool.service", "(or, without a service: toolpool serve)"],
    });
  });

  test("no user bus: install and uninstall answer the same way — file step done, ok false, the exact commands", async () => {
    const { host, ran, home } = fakeHost("linux", {
      answers: { "systemctl --user show-environment": { code: 1, stderr: "Failed to connect to bus: No medium found\n" } },
    });
    const file = join(home, ".config", "systemd", "user", "toolpool.service");
    const installed = await installService(host, spec);
    expect(installed.ok).toBe(false);
    expect(installed.lines.slice(0, 2)).toEqual([
      `wrote ${file}`,
      "the service manager cannot act here: no systemd user session (systemctl --user show-environment: Failed to connect to bus: No medium found)",
    ]);
    expect(existsSync(file)).toBe(true);
    const removed = await uninstallService(host);
    expect(removed).toEqual({
      ok: false,
      file,
      manager: "unavailable",
      lines: [
        `removed ${file}`,
        "the service manager cannot act here: no systemd user session (systemctl --user show-environment: Failed to connect to bus: No medium found)",
        "if the service was enabled in another session, run there:",
      ],
      manual: ["systemctl --user disable --now toolpool.service"],
    });
    expect(existsSync(file)).toBe(false);
    // Nothing installed, nothing to undo: a plain success.
    expect(await uninstallService(host)).toEqual({ ok: true, file, manager: "unavailable", lines: [`${file} was not installed`], manual: [] });
    // Only the probe ran: no step-by-step failures.
    expect(ran.every((line) => line === "systemctl --user show-environment")).toBe(true);
  });

  test("systemctl refusing a step after the probe fails the install with its message and the commands left to run", async () => {
    const { host } = fakeHost("linux", {
      answers: { "systemctl --user daemon-reload": { code: 1, stderr: "Failed to reload: Access denied" } },
    });
    const outcome = await installService(host, spec);
    expect(outcome.ok).toBe(false);
    expect(outcome.lines.at(-1)).toBe("failed (exit 1): systemctl --user daemon-reload — Failed to reload: Access denied");
    expect(outcome.manual).toEqual(["systemctl --user daemon-reload", "systemctl --user enable --now toolpool.service"]);
  });

  test("status reports the file and systemd's view; uninstall disables, removes and reloads", async () => {
    const { host, ran } = fakeHost("linux", {
      answers: {
        "systemctl --user is-active toolpool.service": { stdout: "active\n" },
        "systemctl --user is-enabled toolpool.service": { stdout: "enabled\n" },
        "systemctl --user show --property=MainPID --value toolpool.service": { stdout: "4242\n" },
      },
    });
    await installService(host, spec);
    const state = await serviceState(host, spec);
    expect({ ...state, file: undefined }).toEqual({ platform: "linux", file: undefined, installed: true, current: true, manager: { active: "active", enabled: "enabled" }, mainPid: 4242 });
    expect((await serviceState(host, { ...spec, path: "/elsewhere" })).current).toBe(false);
    ran.length = 0;
    const removed = await uninstallService(host);
    expect(ran).toEqual(["systemctl --user show-environment", "systemctl --user disable --now toolpool.service", "systemctl --user daemon-reload"]);
    expect(existsSync(removed.file)).toBe(false);
    expect(removed.lines).toEqual(["ran: systemctl --user disable --now toolpool.service", `removed ${removed.file}`, "ran: systemctl --user daemon-reload"]);
  });
});

describe("toolpool service on macOS (launchd agent)", () => {
  test("install writes the plist and bootstraps it in the GUI domain (after booting out an old one)", async () => {
    const { host, ran, home } = fakeHost("darwin", { answers: { "launchctl bootout gui/501/dev.toolpool.daemon": { code: 3 } } });
    const outcome = await installService(host, spec);
    const file = join(home, "Library", "LaunchAgents", "dev.toolpool.daemon.plist");
    expect(outcome).toEqual({ ok: true, file, manager: "available", lines: [`wrote ${file}`, `ran: launchctl bootstrap gui/501 ${file}`], manual: [] });
    expect(ran).toEqual(["launchctl print gui/501", "launchctl bootout gui/501/dev.toolpool.daemon", `launchctl bootstrap gui/501 ${file}`]);
    expect(readFileSync(file, "utf8")).toBe(renderServiceFile("darwin", spec));
    ran.length = 0;
    await uninstallService(host);
    expect(ran).toEqual(["launchctl print gui/501", "launchctl bootout gui/501/dev.toolpool.daemon"]);
    expect(existsSync(file)).toBe(false);
  });
});
