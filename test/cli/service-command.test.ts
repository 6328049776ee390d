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

  test("install without systemctl: the unit is written and the commands to run are printed; exit 0", async () => {
    const home = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "svc-"));
    const host: ServiceHost = { platform: "linux", env: { HOME: home }, uid: 1000, has: () => false, run: async () => ({ code: 0, stdout: "", stderr: "" }) };
    const io = capture();
    expect(await serviceCommand("install", { ...io, json: false, host, binary: "/opt/tp" })).toBe(0);
    const file = join(home, ".config", "systemd", "user", "toolpool.service");
    expect(io.lines).toEqual([
      `wrote ${file}`,
      "systemctl is not available here; run these yourself where it is:",
      "  systemctl --user daemon-reload",
      "  systemctl --user enable --now toolpool.service",
    ]);
  });

  test("an unknown action or --platform outside print is a usage error", async () => {
    const io = capture();
    await expect(serviceCommand("restart", { ...io, json: false })).rejects.toThrow("usage: toolpool service install | uninstall | status | print");
    await expect(serviceCommand("install", { ...io, json: false, platform: "darwin" })).rejects.toThrow("--platform is for print only");
    await expect(serviceCommand("print", { ...io, json: false, platform: "windows" })).rejects.toThrow("--platform takes linux or darwin, not windows");
  });
});
