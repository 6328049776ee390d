// test-plan: one tier — the socket and the signals, the same code in every tier.
import { describe, expect, test } from "bun:test";
import { existsSync, statSync, mkdirSync, chmodSync, symlinkSync, writeFileSync, readFileSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { runBinary, startBinaryDaemon } from "../helpers/binary.ts";

describe("daemon lifecycle (compiled binary)", () => {
  test("socket dir 0700, socket 0600; a second daemon on the same socket refuses", async () => {
    const dir = join(tempSocketDir(), "sub");
    const socketPath = join(dir, "t.sock");
    await using daemon = await startBinaryDaemon(socketPath);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    const second = await runBinary(["serve", "--socket", socketPath]);
    expect(second.code).toBe(4);
    expect(second.stderr).toContain(`already running on ${socketPath}`);
    // The first daemon still serves.
    using client = await RawClient.open(socketPath);
    expect((await client.request("ping")).result).toEqual({});
    expect(daemon.child.exitCode).toBeNull();
  });

  test("kill -9, then a restart cleans up the stale socket and serves on the same path", async () => {
    const socketPath = join(tempSocketDir(), "k.sock");
    {
      await using first = await startBinaryDaemon(socketPath);
      first.child.kill("SIGKILL");
      await first.child.exited;
    }
    expect(existsSync(socketPath)).toBe(true);
    await using second = await startBinaryDaemon(socketPath);
    using client = await RawClient.open(socketPath);
    const status = (await client.request("toolpool/status")).result as { pid: number };
    expect(status.pid).toBe(second.child.pid);
  });

  test("SIGTERM with calls in flight: they finish, the daemon exits 0 and removes its socket", async () => {
    const socketPath = join(tempSocketDir(), "t.sock");
    await using daemon = await startBinaryDaemon(socketPath);
    using client = await RawClient.open(socketPath);
    client.send({ jsonrpc: "2.0", id: "bash", method: "toolpool/call", params: { name: "Bash", input: { command: "sleep 0.4; echo finished" } } });
    const started = (await client.request("toolpool/status")).result as { calls: { inFlight: number } };
    expect(started.calls.inFlight).toBe(1);
    daemon.child.kill("SIGTERM");
    const response = await client.waitFor((m) => m.id === "bash");
    expect((response.result as { content: { text: string }[] }).content[0]?.text).toContain("finished");
    expect(await daemon.child.exited).toBe(0);
    expect(existsSync(socketPath)).toBe(false);
    expect(daemon.stderr()).toContain('"stopped"');
  });

  test("an unsafe socket directory is refused with the reason", async () => {
    const base = tempSocketDir();
    const open = join(base, "open");
    mkdirSync(open);
    chmodSync(open, 0o755);
    const wide = await runBinary(["serve", "--socket", join(open, "s.sock")]);
    expect(wide.code).toBe(5);
    expect(wide.stderr).toContain("must be 0700");
    const link = join(base, "link");
    symlinkSync(open, link);
    const linked = await runBinary(["serve", "--socket", join(link, "s.sock")]);
    expect(linked.code).toBe(5);
    expect(linked.stderr).toContain("is a symlink");
    const long = await runBinary(["serve", "--socket", join(base, "x".repeat(120), "s.sock")]);
    expect(long.code).toBe(5);
    expect(long.stderr).toContain("over the");
  });

  test("a socket path naming a file, a symlink or a directory is refused (exit 5) and left as it was", async () => {
    const base = tempSocketDir();
    const file = join(base, "notes.txt");
    writeFileSync(file, "important data\n");
    const onFile = await runBinary(["serve", "--socket", file]);
    expect(onFile.code).toBe(5);
    expect(onFile.stderr).toContain("is a regular file; refusing to replace it");
    expect(readFileSync(file, "utf8")).toBe("important data\n");
    const link = join(base, "link.sock");
    symlinkSync(file, link);
    const onLink = await runBinary(["serve", "--socket", link]);
    expect([onLink.code, onLink.stderr.includes("is a symlink; refusing")]).toEqual([5, true]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const directory = join(base, "dir.sock");
    mkdirSync(directory);
    const onDirectory = await runBinary(["serve", "--socket", directory]);
    expect([onDirectory.code, onDirectory.stderr.includes("is a directory; refusing")]).toEqual([5, true]);
  });

  test("a bad config is refused at start with the field named", async () => {
    const base = tempSocketDir();
    const configPath = join(base, "config.json");
    await Bun.write(configPath, JSON.stringify({ permissions: { mode: "sometimes" }, toolSerch: "auto" }));
    const result = await runBinary(["serve", "--socket", join(base, "s.sock"), "--config", configPath]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('field "permissions.mode"');
    expect(result.stderr).toContain("toolSerch");
    await Bun.write(configPath, JSON.stringify({ workspaceRoots: [base, join(base, "missing")] }));
    const missingRoot = await runBinary(["serve", "--socket", join(base, "s.sock"), "--config", configPath]);
    expect(missingRoot.code).toBe(5);
    expect(missingRoot.stderr).toContain(`field "workspaceRoots.1": ${join(base, "missing")} does not exist`);
  });
});
