// test-plan: one tier — the command line's usage and install, the same in every tier.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMAND_USAGE } from "../../src/cli/usage.ts";
import { binaryPath, REPO_ROOT, runBinary } from "../helpers/binary.ts";

// Copies of a 100 MB binary and dozens of spawns: generous on a loaded machine.
setDefaultTimeout(60_000);

describe("front doors on the built binary", () => {
  test("COMMAND --help and -h print that command's usage, exit 0 and start nothing", async () => {
    const runtime = mkdtempSync(join(tmpdir(), "toolpool-test-help-"));
    const env = { XDG_RUNTIME_DIR: runtime };
    for (const command of Object.keys(COMMAND_USAGE).filter((name) => name !== "help")) {
      for (const flag of ["--help", "-h"]) {
        const result = await runBinary([command, flag], env);
        expect({ command, flag, code: result.code, stderr: result.stderr, head: result.stdout.split("\n")[0] }).toEqual({
          command,
          flag,
          code: 0,
          stderr: "",
          head: COMMAND_USAGE[command]!.usage.split("\n")[0],
        });
      }
    }
    // No daemon, socket, log or bridge was started by any of them.
    expect(readdirSync(runtime)).toEqual([]);
  });

  test("an unknown option names itself and shows the command's usage (exit 2); a misplaced one too", async () => {
    const unknown = await runBinary(["serve", "--sokcet", "/tmp/x.sock"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toStartWith("toolpool serve: Unknown option '--sokcet' (did you mean --socket?)\n\nusage: toolpool serve ");
    const misplaced = await runBinary(["tools", "--max", "3"]);
    expect({ code: misplaced.code, first: misplaced.stderr.split("\n")[0] }).toEqual({ code: 2, first: "toolpool tools: --max is not an option of this command" });
  });

  test("the no-daemon hint names a command that runs from here (not `toolpool` when that is not on PATH)", async () => {
    const runtime = mkdtempSync(join(tmpdir(), "toolpool-test-hint-"));
    const child = Bun.spawn([binaryPath(), "status"], { cwd: REPO_ROOT, env: { ...process.env, XDG_RUNTIME_DIR: runtime, PATH: "/usr/bin:/bin" }, stdout: "pipe", stderr: "pipe" });
    const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    expect({ code, stderr }).toEqual({ code: 3, stderr: `toolpool: no daemon is running on ${runtime}/toolpool/toolpool.sock (start one with: ./dist/${binaryPath().split("/").at(-1)} serve)\n` });
  });

  test("with HOME at a temp dir: install, then $HOME/.local/bin/toolpool version works; uninstall removes it", async () => {
    const home = mkdtempSync(join(tmpdir(), "toolpool-test-install-"));
    const env = { HOME: home, PATH: "/usr/bin:/bin", SHELL: "/bin/bash" };
    const installed = await runBinary(["install"], env);
    const target = join(home, ".local", "bin", "toolpool");
    expect({ code: installed.code, stdout: installed.stdout }).toEqual({
      code: 0,
      stdout: `installed ${target} from ${binaryPath()}\n${join(home, ".local", "bin")} is not on your PATH. Add it with:\n  echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.bashrc\nthen open a new terminal (or run ${target} directly)\n`,
    });
    expect(statSync(target).mode & 0o777).toBe(0o755);
    const version = Bun.spawnSync([target, "version"], { env: { ...process.env, ...env } });
    expect(version.exitCode).toBe(0);
    expect(version.stdout.toString()).toStartWith("toolpool ");
    // On PATH: it says so; installing again replaces the file atomically.
    const again = await runBinary(["install", "--json"], { ...env, PATH: `${join(home, ".local", "bin")}:/usr/bin` });
    expect(JSON.parse(again.stdout)).toEqual({ installed: target, from: binaryPath(), replaced: true, onPath: true });
    expect(readdirSync(join(home, ".local", "bin"))).toEqual(["toolpool"]);
    const prefixed = await runBinary(["install", "--prefix", join(home, "opt"), "--json"], env);
    expect(JSON.parse(prefixed.stdout).installed).toBe(join(home, "opt", "bin", "toolpool"));
    const removed = await runBinary(["uninstall"], env);
    expect({ code: removed.code, stdout: removed.stdout, exists: existsSync(target) }).toEqual({ code: 0, stdout: `removed ${target}\n`, exists: false });
  });

  test("config import of a sample file and host add claude-desktop, on the binary: the entry runs the installed binary", async () => {
    const home = mkdtempSync(join(tmpdir(), "toolpool-test-adopt-"));
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), TOOLPOOL_CONFIG: "" };
    const sample = join(REPO_ROOT, "test", "fixtures", "hosts", "claude-desktop", "claude_desktop_config.json");
    const imported = await runBinary(["config", "import", sample], env);
    expect(imported.code).toBe(0);
    expect(Object.keys(JSON.parse(imported.stdout).mcpServers)).toEqual(["filesystem", "github", "brave-search"]);
    const written = await runBinary(["config", "import", sample, "--write"], env);
    expect(written.stdout.split("\n")[0]).toBe(`wrote ${join(home, ".config", "toolpool", "config.json")} (a new file)`);
    const desktop = join(home, ".config", "Claude", "claude_desktop_config.json");
    mkdirSync(join(desktop, ".."), { recursive: true });
    copyFileSync(sample, desktop);
    expect((await runBinary(["install"], env)).code).toBe(0);
    const added = await runBinary(["host", "add", "claude-desktop", "--move", "--json"], env);
    const outcome = JSON.parse(added.stdout);
    expect({ code: added.code, entry: outcome.entry, moved: outcome.moved, kept: outcome.kept }).toEqual({ code: 0, entry: "added", moved: ["filesystem", "github", "brave search"], kept: [] });
    // The host now sees one server: toolpool, run from the installed binary.
    expect(JSON.parse(readFileSync(desktop, "utf8")).mcpServers).toEqual({ toolpool: { command: join(home, ".local", "bin", "toolpool"), args: ["mcp"] } });
    expect(readFileSync(outcome.backup, "utf8")).toBe(readFileSync(sample, "utf8"));
    // --tier names the binary beside this one.
    const tiered = await runBinary(["host", "add", "cursor", "--tier", "pro", "--json"], env, "pro");
    expect(JSON.parse(readFileSync(join(home, ".cursor", "mcp.json"), "utf8")).mcpServers.toolpool.command).toBe(binaryPath("pro"));
    expect(tiered.code).toBe(0);
  });
});
