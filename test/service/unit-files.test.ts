import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { escapeXml, renderLaunchdPlist } from "../../src/service/launchd-plist.ts";
import { buildServiceSpec, serviceFilePath, type ServiceSpec } from "../../src/service/service-spec.ts";
import { quoteArgument, renderSystemdUnit } from "../../src/service/systemd-unit.ts";

const SPEC: ServiceSpec = {
  argv: ["/opt/toolpool/bin/toolpool-pro", "serve", "--config", "/home/ada/my configs/100%.json", "--socket", "/run/user/1000/tp.sock"],
  path: "/home/ada/.nvm/versions/node/v22/bin:/usr/local/bin:/usr/bin:/bin",
  workingDirectory: "/home/ada",
  logPath: "/home/ada/Library/Logs/toolpool.log",
};

describe("systemd user unit", () => {
  test("the whole unit, pinned: PATH captured, restart on failure (not on 4/5), stop timeout past the drain, reload by SIGHUP", () => {
    expect(renderSystemdUnit(SPEC)).toBe(
      [
        "[Unit]",
        "Description=toolpool: tool-pool daemon for LLM agents",
        "",
        "[Service]",
        "Type=simple",
        'ExecStart=/opt/toolpool/bin/toolpool-pro serve --config "/home/ada/my configs/100%%.json" --socket /run/user/1000/tp.sock',
        "ExecReload=/bin/kill -HUP $MAINPID",
        "WorkingDirectory=/home/ada",
        "Environment=PATH=/home/ada/.nvm/versions/node/v22/bin:/usr/local/bin:/usr/bin:/bin",
        "Restart=on-failure",
        "RestartSec=2",
        "RestartPreventExitStatus=4 5",
        "TimeoutStopSec=15",
        "KillMode=mixed",
        "",
        "[Install]",
        "WantedBy=default.target",
        "",
      ].join("\n"),
    );
  });

  test("words are quoted for systemd: specifiers and variables doubled, spaces and quotes quoted", () => {
    expect(["/usr/bin/x", "a b", "100%", "$HOME", 'say "hi"', "back\\slash"].map(quoteArgument)).toEqual([
      "/usr/bin/x",
      '"a b"',
      "100%%",
      "$$HOME",
      '"say \\"hi\\""',
      '"back\\\\slash"',
    ]);
  });

  const analyze = Bun.which("systemd-analyze");
  test.skipIf(analyze === null)("systemd-analyze --user verify accepts the printed unit (awkward paths included)", async () => {
    const dir = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "unit-"));
    const spec = { ...SPEC, argv: [process.execPath, "serve", "--config", join(dir, "my config %d.json"), "--socket", join(dir, "a$b.sock")] };
    const file = join(dir, "toolpool.service");
    writeFileSync(file, renderSystemdUnit(spec));
    const child = Bun.spawn([analyze!, "--user", "verify", file], { env: { ...process.env }, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    // verify reports bad lines as warnings with exit 0, so its output must be empty too.
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe("launchd agent", () => {
  test("program arguments one per string, PATH, restart on failure only, exit timeout, log file", () => {
    const plist = renderLaunchdPlist(SPEC);
    expect(plist).toContain("<key>Label</key>\n  <string>dev.toolpool.daemon</string>");
    expect(plist).toContain(
      "  <array>\n    <string>/opt/toolpool/bin/toolpool-pro</string>\n    <string>serve</string>\n    <string>--config</string>\n    <string>/home/ada/my configs/100%.json</string>\n    <string>--socket</string>\n    <string>/run/user/1000/tp.sock</string>\n  </array>",
    );
    expect(plist).toContain("<key>PATH</key>\n    <string>/home/ada/.nvm/versions/node/v22/bin:/usr/local/bin:/usr/bin:/bin</string>");
    expect(plist).toContain("<key>KeepAlive</key>\n  <dict>\n    <key>SuccessfulExit</key>\n    <false/>\n  </dict>");
    expect(plist).toContain("<key>ExitTimeOut</key>\n  <integer>15</integer>");
    expect(plist).toContain("<key>StandardErrorPath</key>\n  <string>/home/ada/Library/Logs/toolpool.log</string>");
    expect(plist.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist')).toBe(true);
    expect(escapeXml(`<a & "b" 'c'>`)).toBe("&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;");
  });
});

describe("what the service runs", () => {
  test("this toolpool by default; --binary, --config and --socket made absolute; else $TOOLPOOL_CONFIG/$TOOLPOOL_SOCKET", () => {
    const env = { HOME: "/home/ada", PATH: "/p1:/p2", TOOLPOOL_CONFIG: "/etc/tp.json", TOOLPOOL_SOCKET: "/run/tp.sock" };
    expect(buildServiceSpec({ env, self: ["/usr/bin/bun", "/src/main.ts"] })).toEqual({
      argv: ["/usr/bin/bun", "/src/main.ts", "serve", "--config", "/etc/tp.json", "--socket", "/run/tp.sock"],
      path: "/p1:/p2",
      workingDirectory: "/home/ada",
      logPath: "/home/ada/Library/Logs/toolpool.log",
    });
    const flagged = buildServiceSpec({ env: { HOME: "/h", PATH: "/p" }, binary: "dist/toolpool-pro", config: "c.json" });
    expect(flagged.argv).toEqual([join(process.cwd(), "dist/toolpool-pro"), "serve", "--config", join(process.cwd(), "c.json")]);
  });

  test("files go where systemd and launchd look for user services", () => {
    expect(serviceFilePath("linux", { HOME: "/home/ada" })).toBe("/home/ada/.config/systemd/user/toolpool.service");
    expect(serviceFilePath("linux", { HOME: "/home/ada", XDG_CONFIG_HOME: "/cfg" })).toBe("/cfg/systemd/user/toolpool.service");
    expect(serviceFilePath("darwin", { HOME: "/Users/ada" })).toBe("/Users/ada/Library/LaunchAgents/dev.toolpool.daemon.plist");
  });
});
