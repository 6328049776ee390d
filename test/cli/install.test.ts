import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installCommand, pathAdvice, uninstallCommand } from "../../src/cli/install.ts";

function setup() {
  const home = mkdtempSync(join(tmpdir(), "toolpool-test-inst-"));
  const binary = join(home, "built-toolpool");
  writeFileSync(binary, "#!/bin/sh\necho built\n");
  chmodSync(binary, 0o700);
  const lines: string[] = [];
  const io = { json: false, out: (text: string) => lines.push(text), err: (text: string) => lines.push(text), binary };
  return { home, binary, lines, io };
}

describe("toolpool install (in process)", () => {
  test("copies with mode 0755 whatever the source's mode; leaves no temp file; says what to add for zsh and fish", async () => {
    const { home, lines, io } = setup();
    expect(await installCommand({ ...io, env: { HOME: home, PATH: "/usr/bin", SHELL: "/usr/bin/zsh" } })).toBe(0);
    const target = join(home, ".local", "bin", "toolpool");
    expect({ mode: statSync(target).mode & 0o777, text: readFileSync(target, "utf8") }).toEqual({ mode: 0o755, text: "#!/bin/sh\necho built\n" });
    expect(lines[2]).toBe(`  echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.zshrc`);
    expect(pathAdvice(join(home, ".local", "bin"), target, { HOME: home, PATH: "/usr/bin", SHELL: "/usr/local/bin/fish" }).addToPath).toBe("fish_add_path $HOME/.local/bin");
  });

  test("--prefix: a symlink planted at the old predictable temp name is not followed; the temp file is exclusive and random; no temp is left", async () => {
    const { home, io } = setup();
    const prefix = join(home, "shared");
    const bin = join(prefix, "bin");
    mkdirSync(bin, { recursive: true });
    const victim = join(home, "victim.txt");
    writeFileSync(victim, "precious\n");
    // Where the installer used to write (.toolpool.install-<pid>): someone with write access to the prefix links it elsewhere.
    symlinkSync(victim, join(bin, `.toolpool.install-${process.pid}`));
    expect(await installCommand({ ...io, prefix, env: { HOME: home, PATH: "/usr/bin" } })).toBe(0);
    expect({
      victim: readFileSync(victim, "utf8"),
      installed: readFileSync(join(bin, "toolpool"), "utf8"),
      left: readdirSync(bin).sort(),
    }).toEqual({ victim: "precious\n", installed: "#!/bin/sh\necho built\n", left: [`.toolpool.install-${process.pid}`, "toolpool"] });
  });

  test("a toolpool earlier on PATH that shadows the installed one is named", async () => {
    const { home, lines, io } = setup();
    const earlier = join(home, "earlier");
    mkdirSync(earlier);
    writeFileSync(join(earlier, "toolpool"), "old");
    const bin = join(home, ".local", "bin");
    expect(await installCommand({ ...io, env: { HOME: home, PATH: `${earlier}:${bin}` } })).toBe(0);
    expect(lines.at(-1)).toBe(`note: ${join(earlier, "toolpool")} comes first on your PATH; \`toolpool\` runs that one`);
  });

  test("uninstall removes only a regular file; a symlink there is left alone; --prefix '' is a usage error", async () => {
    const { home, binary, io } = setup();
    const bin = join(home, ".local", "bin");
    mkdirSync(bin, { recursive: true });
    symlinkSync(binary, join(bin, "toolpool"));
    await expect(uninstallCommand({ ...io, env: { HOME: home } })).rejects.toThrow("is not a file install wrote (it is a symlink); leaving it");
    expect(statSync(binary).isFile()).toBe(true);
    await expect(installCommand({ ...io, prefix: " ", env: { HOME: home } })).rejects.toThrow("--prefix takes a directory");
  });

  test("uninstall says when the background service still runs the removed binary", async () => {
    const { home, lines, io } = setup();
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), PATH: "/usr/bin" };
    await installCommand({ ...io, env });
    const target = join(home, ".local", "bin", "toolpool");
    const unit = process.platform === "darwin" ? join(home, "Library", "LaunchAgents", "dev.toolpool.daemon.plist") : join(home, ".config", "systemd", "user", "toolpool.service");
    mkdirSync(join(unit, ".."), { recursive: true });
    writeFileSync(unit, `[Service]\nExecStart=${target} serve\n`);
    lines.length = 0;
    expect(await uninstallCommand({ ...io, env })).toBe(0);
    expect(lines).toEqual([`removed ${target}`, `note: the background service (${unit}) runs that binary: run toolpool service uninstall (or install it again from another binary)`]);
  });

  test("uninstall warns about, and lists, the MCP host entries that still run the removed binary", async () => {
    const { home, lines, io } = setup();
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), PATH: "/usr/bin" };
    await installCommand({ ...io, env });
    const target = join(home, ".local", "bin", "toolpool");
    const desktop = join(home, ".config", "Claude", "claude_desktop_config.json");
    mkdirSync(join(desktop, ".."), { recursive: true });
    writeFileSync(desktop, JSON.stringify({ mcpServers: { toolpool: { command: target, args: ["mcp"] }, other: { command: "npx", args: ["x"] } } }));
    mkdirSync(join(home, ".config", "Code", "User"), { recursive: true });
    writeFileSync(join(home, ".config", "Code", "User", "mcp.json"), JSON.stringify({ servers: { toolpool: { type: "stdio", command: target, args: ["mcp"] } } }));
    // Another binary's entry is not this uninstall's business.
    writeFileSync(join(home, ".claude.json"), JSON.stringify({ mcpServers: { toolpool: { command: "/opt/other/toolpool", args: ["mcp"] } } }));
    lines.length = 0;
    expect(await uninstallCommand({ ...io, env })).toBe(0);
    expect(lines).toEqual([
      `removed ${target}`,
      "warning: 2 MCP host entries still run that binary and will fail until you remove them (toolpool host remove NAME, from another toolpool) or install again:",
      `  claude-desktop: "toolpool" in ${desktop}`,
      `  vscode: "toolpool" in ${join(home, ".config", "Code", "User", "mcp.json")}`,
    ]);
  });
});
