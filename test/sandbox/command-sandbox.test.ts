import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createCommandSandbox, type SandboxSettings } from "../../src/sandbox/command-sandbox.ts";
import type { SandboxSupport } from "../../src/sandbox/sandbox-support.ts";
import { pathDenyRules } from "../../src/permissions/rules.ts";
import { daemonPrivatePaths } from "../../src/sandbox/private-paths.ts";
import { sandboxSettings } from "../../src/sandbox/sandbox-settings.ts";

const none: SandboxSupport = { backend: "none", reason: "bubblewrap (bwrap) is not installed; install the bubblewrap package", userNamespaces: true, probeMs: 1 };
const bwrap: SandboxSupport = { backend: "bubblewrap", bwrapPath: "/usr/bin/bwrap", userNamespaces: true, probeMs: 1 };

function sandboxWith(support: SandboxSupport, settings: SandboxSettings, hidden: string[] = []) {
  return createCommandSandbox({ support: Promise.resolve(support), settings: () => settings, hidden: () => hidden, tmpBase: process.env.TOOLPOOL_TEST_ROOT!, home: "/nonexistent-home" });
}

function request(root: string, deny: string[] = []) {
  return { command: ["bash", "-c", "true"], cwd: root, workspaceRoots: [root], denyRules: pathDenyRules(deny), ruleBases: [root] };
}

describe("createCommandSandbox", () => {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "cs-")));
  writeFileSync(join(root, ".env"), "x");

  test("required without a backend refuses, auto runs unconfined with the reason, off never confines", async () => {
    expect(await sandboxWith(none, { mode: "required", network: "none" }).prepare(request(root))).toEqual({
      kind: "refused",
      message: 'The command was not run: the config requires a sandbox (sandbox.mode "required") and there is none here (bubblewrap (bwrap) is not installed; install the bubblewrap package).',
    });
    expect(await sandboxWith(none, { mode: "auto", network: "none" }).prepare(request(root))).toEqual({ kind: "unconfined", argv: ["bash", "-c", "true"], reason: none.reason! });
    expect(await sandboxWith(bwrap, { mode: "off", network: "all" }).prepare(request(root))).toEqual({ kind: "unconfined", argv: ["bash", "-c", "true"], reason: "the config turns the sandbox off" });
  });

  test("confined: the deny rule's file and the daemon's files are masked, TMPDIR is private and removed by cleanup", async () => {
    const state = join(process.env.TOOLPOOL_TEST_ROOT!, "cs-state");
    mkdirSync(state, { recursive: true });
    const prepared = await sandboxWith(bwrap, { mode: "auto", network: "none" }, [state, "/nonexistent.sock"]).prepare(request(root, ["Read(**/.env)"]));
    if (prepared.kind !== "confined") throw new Error(prepared.kind);
    const tmp = prepared.env.TMPDIR!;
    expect(existsSync(tmp)).toBe(true);
    const argv = prepared.argv.join(" ");
    expect(argv).toContain(`--ro-bind /dev/null ${join(root, ".env")}`);
    expect(argv).toContain(`--tmpfs ${state} --remount-ro ${state}`);
    expect(argv).not.toContain("nonexistent.sock");
    expect(argv).toContain(`--bind ${tmp} ${tmp}`);
    await prepared.cleanup();
    expect(existsSync(tmp)).toBe(false);
  });

  test("state before and after the probe", async () => {
    let answer!: (support: SandboxSupport) => void;
    const sandbox = createCommandSandbox({ support: new Promise((resolve) => (answer = resolve)), settings: () => ({ mode: "auto", network: "none" }), hidden: () => [] });
    expect(sandbox.state().summary).toBe("sandbox not probed yet");
    answer(bwrap);
    expect((await sandbox.ready()).confined).toBe(true);
  });
});

describe("daemonPrivatePaths and sandboxSettings", () => {
  test("the state dir, the socket, its toolpool dir and the config file; nothing nested twice", () => {
    expect(daemonPrivatePaths({ socketPath: "/run/u/toolpool/toolpool.sock", configPath: "/c/config.json", env: { XDG_STATE_HOME: "/s" } })).toEqual(["/s/toolpool", "/run/u/toolpool", "/c/config.json"]);
    expect(daemonPrivatePaths({ socketPath: "/s/toolpool/x.sock", env: { XDG_STATE_HOME: "/s" } })).toEqual(["/s/toolpool"]);
  });

  test("the discovery record's directory too, when XDG_STATE_HOME puts the state dir elsewhere (a command could rewrite the record's config)", () => {
    expect(daemonPrivatePaths({ socketPath: "/run/u/toolpool/toolpool.sock", recordPath: "/h/.local/state/toolpool/daemon.json", env: { XDG_STATE_HOME: "/s" } })).toEqual([
      "/s/toolpool",
      "/h/.local/state/toolpool",
      "/run/u/toolpool",
    ]);
    expect(daemonPrivatePaths({ socketPath: "/run/u/toolpool/toolpool.sock", recordPath: "/h/.local/state/toolpool/daemon.json", env: { HOME: "/h" } })).toEqual(["/h/.local/state/toolpool", "/run/u/toolpool"]);
  });

  test("defaults: auto, no network", () => {
    expect(sandboxSettings({})).toEqual({ mode: "auto", network: "none" });
    expect(sandboxSettings({ sandbox: { mode: "required", network: "all" } })).toEqual({ mode: "required", network: "all" });
  });
});
