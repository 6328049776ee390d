import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { serviceCommand } from "../../src/cli/service.ts";
import type { ServiceHost } from "../../src/service/service-manager.ts";
import { buildServiceSpec } from "../../src/service/service-spec.ts";
import { renderSystemdUnit } from "../../src/service/systemd-unit.ts";
import { REPO_ROOT } from "../helpers/binary.ts";

function capture() {
  const lines: string[] = [];
  return { lines, out: (text: string) => lines.push(text), err: (text: string) => lines.push(`ERR ${text}`) };
}

describe("toolpool service (command line)", () => {
  test("print shows the unit install would write, for --binary, with --config and --socket", async () => {
    const child = Bun.spawn(
      [process.execPath, join(REPO_ROOT, "src", "main.ts"), "service", "print", "--platform", "linux", "--binary", "/opt/tp", "--config", "/etc/tp.json", "--socket", "/run/tp.sock"],
      { env: { ...process.env, TOOLPOOL_CONFIG: undefined, TOOLPOOL_SOCKET: undefined }, stdout: "pipe", stderr: "pipe" },
    );
    const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    expect(code).toBe(0);
    const expected = renderSystemdUnit(buildServiceSpec({ binary: "/opt/tp", config: "/etc/tp.json", socket: "/run/tp.sock" }));
    expect(stdout).toBe(expected);
    expect(stdout).toContain("ExecStart=/opt/tp serve --config /etc/tp.json --socket /run/tp.sock\n");
  });

  test("install without systemctl: the unit is written, the commands to run are printed; exit 1 (not finished)", async () => {
    const home = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "svc-"));
    const host: ServiceHost = { platform: "linux", env: { HOME: home }, uid: 1000, has: () => false, run: async () => ({ code: 0, stdout: "", stderr: "" }) };
    const io = capture();
    expect(await serviceCommand("install", { ...io, json: false, host, binary: "/opt/tp" })).toBe(1);
    const file = join(home, ".config", "systemd", "user", "toolpool.service");
    expect(io.lines).toEqual([
      `wrote ${file}`,
      "the service manager cannot act here: systemctl is not installed here",
      "so the service is not enabled; in a login session with a user manager (or after `sudo loginctl enable-linger $USER`), run:",
      "  systemctl --user daemon-reload",
      "  systemctl --user enable --now toolpool.service",
      "  (or, without a service: toolpool serve)",
      "toolpool service install: not finished (exit 1); the file step is done, the commands above are left",
    ]);
    const json = capture();
    expect(await serviceCommand("uninstall", { ...json, json: true, host })).toBe(1);
    expect(JSON.parse(json.lines[0]!)).toMatchObject({ ok: false, manager: "unavailable", file, manual: ["systemctl --user disable --now toolpool.service"] });
  });

  test("status says whether the running daemon is the service's (by the pid the service manager reports)", async () => {
    const home = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "svc-"));
    const mainPid = { value: "777\n" };
    const host: ServiceHost = {
      platform: "linux",
      env: { HOME: home },
      uid: 1000,
      has: () => true,
      run: async (argv) => ({ code: 0, stdout: argv.includes("--property=MainPID") ? mainPid.value : argv.includes("is-active") ? "active\n" : "", stderr: "" }),
    };
    const daemonFacts = async () => ({ running: true as const, socket: "/run/tp.sock", pid: 777, version: "0.1.0", tier: "pro" });
    const io = capture();
    await serviceCommand("status", { ...io, json: false, host, daemonFacts });
    expect(io.lines.at(-1)).toBe("daemon: running, pid 777, 0.1.0 (pro) on /run/tp.sock — run by the service");
    mainPid.value = "0\n";
    const byHand = capture();
    await serviceCommand("status", { ...byHand, json: true, host, daemonFacts });
    expect(JSON.parse(byHand.lines[0]!).daemon).toEqual({ running: true, socket: "/run/tp.sock", pid: 777, version: "0.1.0", tier: "pro", service: false });
    const noBus: ServiceHost = { ...host, run: async () => ({ code: 1, stdout: "", stderr: "Failed to connect to bus: No medium found" }) };
    const unreachable = capture();
    await serviceCommand("status", { ...unreachable, json: false, host: noBus, daemonFacts });
    expect(unreachable.lines).toEqual([
      `service file: ${join(home, ".config", "systemd", "user", "toolpool.service")} (not installed)`,
      "service manager: cannot be asked here: no systemd user session (systemctl --user show-environment: Failed to connect to bus: No medium found)",
      "daemon: running, pid 777, 0.1.0 (pro) on /run/tp.sock — not the service's (started by hand or by toolpool mcp)",
    ]);
  });

  test("print --json gives the platform, the file and the text", async () => {
    const io = capture();
    const host: ServiceHost = { platform: "linux", env: { HOME: "/home/ada" }, uid: 1000, has: () => false, run: async () => ({ code: 0, stdout: "", stderr: "" }) };
    expect(await serviceCommand("print", { ...io, json: true, host, binary: "/opt/tp" })).toBe(0);
    const printed = JSON.parse(io.lines[0]!);
    expect({ platform: printed.platform, file: printed.file }).toEqual({ platform: "linux", file: "/home/ada/.config/systemd/user/toolpool.service" });
    expect(printed.text).toContain("ExecStart=/opt/tp serve");
  });

  test("an unknown action or --platform outside print is a usage error", async () => {
    const io = capture();
    await expect(serviceCommand("restart", { ...io, json: false })).rejects.toThrow("usage: toolpool service install | uninstall | status | print");
    await expect(serviceCommand("install", { ...io, json: false, platform: "darwin" })).rejects.toThrow("--platform is for print only");
    await expect(serviceCommand("print", { ...io, json: false, platform: "windows" })).rejects.toThrow("--platform takes linux or darwin, not windows");
  });
});
