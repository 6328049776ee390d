/**
 * Project config and trust, over the real socket with real server processes: a workspace's
 * `.toolpool.json` brings servers that stay `untrusted` (never started) until `toolpool trust`,
 * stop being trusted when the file changes, stay apart from another project's same-named servers,
 * and are seen only by sessions in that workspace; its defaultProfile applies there.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolpoolClient } from "../../src/client/client.ts";
import { projectServerName } from "../../src/mcp/project-servers.ts";
import type { ServerSummary } from "../../src/protocol/methods.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { FIXTURE_SERVER, REPO_ROOT, tempDir, waitFor } from "../mcp/helpers.ts";

setDefaultTimeout(60_000);

function project(name: string, extra: Record<string, unknown> = {}) {
  const root = join(tempDir("proj-"), name);
  mkdirSync(root);
  const real = realpathSync(root);
  return withFile(real, extra);
}

function withFile(root: string, extra: Record<string, unknown>) {
  const marker = join(root, "started");
  const file = join(root, ".toolpool.json");
  const write = (args: string[] = []) =>
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { fx: { command: "sh", args: ["-c", `touch "${marker}"; exec "${process.execPath}" "${FIXTURE_SERVER}" ${args.join(" ")}`], timeoutMs: 10_000 } },
        ...extra,
      }),
    );
  write();
  return { root, file, marker, write, server: projectServerName("fx", root) };
}

function trust(path: string, socketPath: string) {
  return Bun.spawn([process.execPath, join(REPO_ROOT, "src", "main.ts"), "trust", path, "--socket", socketPath], { stdout: "pipe", stderr: "pipe", env: process.env });
}

const namesOf = (tools: unknown[]) => tools.map((tool) => (tool as { name: string }).name);

describe("project config and trust", () => {
  test("untrusted servers never start; toolpool trust starts them; a changed file is untrusted again; projects stay apart", async () => {
    const a = project("alpha", { defaultProfile: "withfx" });
    const b = project("beta");
    await using harness = await startTestDaemon({ config: { profiles: { withfx: { include: ["Read", "group:mcp"] } } } });
    const client = await ToolpoolClient.connect(harness.socketPath);
    const server = async (name: string) => (await client.servers()).servers.find((entry) => entry.name === name) as ServerSummary | undefined;
    const toolsOf = async (roots: string[]) => {
      const { sessionId } = await client.session({ workspaceRoots: roots, delivery: "standard" });
      return namesOf((await client.assemble({ sessionId, messages: [] })).tools);
    };
    try {
      // A session in alpha makes the daemon read alpha's file: its server waits, saying why.
      const opened = await client.session({ workspaceRoots: [a.root], delivery: "standard" });
      expect(opened.settings.profile?.name).toBe("withfx");
      const waiting = await waitFor(async () => (await server(a.server))?.state === "untrusted" && (await server(a.server)), "alpha's server listed as untrusted");
      expect(waiting.reason).toBe(`waiting for approval: project file ${a.file} is not trusted; run \`toolpool trust ${a.file}\` once you have checked it`);
      expect((await client.status()).mcpServers).toMatchObject({ untrusted: 1 });
      expect(existsSync(a.marker)).toBe(false);
      expect(await toolsOf([a.root])).toEqual(["Read"]);

      // Approve alpha: its server starts, and only alpha's sessions see its tools.
      const approved = trust(a.root, harness.socketPath);
      const approvedText = await new Response(approved.stdout).text();
      expect(await approved.exited).toBe(0);
      expect(approvedText).toContain(`trusted ${a.file}`);
      expect(approvedText).toContain(`  fx:\n    command: "sh"\n    args: "-c" ${JSON.stringify(`touch "${a.marker}"; exec "${process.execPath}" "${FIXTURE_SERVER}" `)}`);
      await waitFor(async () => (await server(a.server))?.state === "connected", "alpha's server connected");
      expect(existsSync(a.marker)).toBe(true);
      await waitFor(async () => (await toolsOf([a.root])).includes(`mcp__${a.server}__echo`), "alpha's tools in an alpha session");

      // beta: same server name, another project — apart, untrusted, unseen by alpha, never started.
      const betaTools = await toolsOf([b.root]);
      await waitFor(async () => (await server(b.server))?.state === "untrusted", "beta's server listed as untrusted");
      expect(b.server).not.toBe(a.server);
      expect(betaTools.some((name) => name.startsWith("mcp__"))).toBe(false);
      expect(existsSync(b.marker)).toBe(false);
      const outsider = await toolsOf([tempDir("elsewhere-")]);
      expect(outsider.some((name) => name.startsWith("mcp__"))).toBe(false);
      const called = await client.call({ sessionId: (await client.session({ workspaceRoots: [b.root] })).sessionId, name: `mcp__${a.server}__echo`, input: { text: "x" } });
      expect(called.isError).toBe(true);

      // alpha's file changes: it is not trusted any more, so its server stops and its tools leave.
      a.write(["--changed"]);
      await client.session({ workspaceRoots: [a.root] });
      await waitFor(async () => (await server(a.server))?.state === "untrusted", "alpha's changed file untrusted");
      await waitFor(async () => !(await toolsOf([a.root])).includes(`mcp__${a.server}__echo`), "alpha's tools gone");

      // Approving the new content brings it back; revoking the approval stops it again.
      expect(await trust(a.file, harness.socketPath).exited).toBe(0);
      await waitFor(async () => (await server(a.server))?.state === "connected", "alpha's new content trusted");
      const revoked = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "main.ts"), "trust", "--revoke", a.root, "--socket", harness.socketPath], { stdout: "pipe", env: process.env });
      expect(await new Response(revoked.stdout).text()).toBe(`no longer trusted: ${a.file}\n`);
      await waitFor(async () => (await server(a.server))?.state === "untrusted", "alpha revoked");
    } finally {
      client.close();
    }
  });

  test("an approval pins the script a server runs: Write changes ./server.sh, the server does not start, the message names the file; approving again starts it; trust shows env", async () => {
    const root = realpathSync(tempDir("pinned-"));
    const script = join(root, "server.sh");
    const marker = join(root, "started");
    const scriptText = (extra: string) => `#!/bin/sh\n${extra}exec "${process.execPath}" "${FIXTURE_SERVER}"\n`;
    writeFileSync(script, scriptText(""), { mode: 0o755 });
    const file = join(root, ".toolpool.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { fx: { command: "./server.sh", startup: "lazy", env: { LD_PRELOAD: "/tmp/evil.so" }, timeoutMs: 10_000 } } }));
    const name = projectServerName("fx", root);
    await using harness = await startTestDaemon({ config: {} });
    const client = await ToolpoolClient.connect(harness.socketPath);
    const server = async () => (await client.servers()).servers.find((entry) => entry.name === name) as ServerSummary | undefined;
    try {
      const { sessionId } = await client.session({ workspaceRoots: [root], delivery: "standard" });
      await waitFor(async () => (await server())?.state === "untrusted", "the server waits for approval");
      const approved = trust(root, harness.socketPath);
      const approvedText = await new Response(approved.stdout).text();
      expect(await approved.exited).toBe(0);
      // What runs is shown before anyone relies on it: command, env (LD_PRELOAD), and the pinned script.
      expect(approvedText).toContain('    command: "./server.sh"\n    env LD_PRELOAD="/tmp/evil.so"\n  pinned files (a change to any makes this approval lapse):\n    ' + script + "  sha256 ");
      await waitFor(async () => ["idle", "connected"].includes((await server())?.state ?? ""), "approved: listed");
      await waitFor(async () => (await client.tools()).tools.some((tool) => tool.name === `mcp__${name}__echo`), "its tools in the pool");

      // The session rewrites the script with Write (no Bash needed); the next start is refused.
      const written = await client.call({ sessionId, name: "Write", input: { file_path: script, content: scriptText(`touch "${marker}"\n`) } });
      expect(written.isError).toBe(false);
      const called = await client.call({ sessionId, name: `mcp__${name}__echo`, input: { text: "x" } });
      expect({ isError: called.isError, text: JSON.stringify(called.content) }).toMatchObject({ isError: true });
      expect(JSON.stringify(called.content)).toContain(`${script} changed since it was approved`);
      expect(existsSync(marker)).toBe(false);
      expect(await server()).toMatchObject({ state: "untrusted" });
      expect((await server())?.reason).toContain(`${script} changed since it was approved`);
      // A session opened now reads the project again: still waiting, same reason.
      await client.session({ workspaceRoots: [root] });
      expect((await server())?.reason).toContain(`${script} changed since it was approved`);

      // Approved again (after reading it): the server starts, running the new script.
      expect(await trust(root, harness.socketPath).exited).toBe(0);
      await waitFor(async () => (await server())?.state !== "untrusted", "approved again");
      const again = await client.call({ sessionId, name: `mcp__${name}__echo`, input: { text: "x" } });
      expect(again.isError).toBe(false);
      expect(existsSync(marker)).toBe(true);
    } finally {
      client.close();
    }
  });
});
