// test-plan: one tier — OAuth logins and profiles, the same code in every tier.
/**
 * The compiled binary, as a user drives it: `toolpool auth login` against an OAuth-protected MCP
 * server on loopback (the test plays the browser), a call, `auth status` without tokens, and
 * `tools --profile`; `toolpool trust` on a workspace's `.toolpool.json`.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolpoolClient } from "../../src/client/client.ts";
import { projectServerName } from "../../src/mcp/project-servers.ts";
import { binaryPath, runBinary, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { playBrowser, startOAuthFixture } from "../fixtures/mcp/oauth-fixture-server.ts";
import { FIXTURE_SERVER, tempDir, waitFor } from "../mcp/helpers.ts";

setDefaultTimeout(60_000);

describe("the compiled binary: OAuth, profiles, trust", () => {
  test("auth login, a call, auth status, tools --profile, trust", async () => {
    await using fixture = await startOAuthFixture();
    const dir = tempDir("e2e-oauth-");
    const workspace = join(dir, "workspace");
    mkdirSync(workspace);
    writeFileSync(join(workspace, ".toolpool.json"), JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER] } } }));
    const configPath = join(dir, "config.json");
    writeFileSync(
      configPath,
      JSON.stringify({ workspaceRoots: [workspace], mcpServers: { remote: { type: "http", url: fixture.url } }, profiles: { remoteOnly: { include: ["mcp__remote"] } } }),
    );
    const socketPath = join(tempSocketDir(), "e.sock");
    await using daemon = await startBinaryDaemon(socketPath, ["--config", configPath]);
    const client = await ToolpoolClient.connect(socketPath);
    try {
      await waitFor(async () => (await client.servers()).servers.find((server) => server.name === "remote")?.state === "needs-auth", "needs-auth");
      const servers = await runBinary(["servers", "--socket", socketPath]);
      expect(servers.stdout).toContain("run `toolpool auth login remote`");

      const login = Bun.spawn([binaryPath(), "auth", "login", "remote", "--socket", socketPath], { env: process.env, stdout: "pipe", stderr: "pipe" });
      const reader = login.stdout.getReader();
      let printed = "";
      const pattern = /http:\/\/127\.0\.0\.1:\d+\/authorize\S*/;
      while (!pattern.test(printed)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`auth login ended early: ${printed}`);
        printed += new TextDecoder().decode(chunk.value);
      }
      expect((await playBrowser(printed.match(pattern)![0])).status).toBe(200);
      reader.releaseLock();
      expect(await login.exited).toBe(0);

      const called = await runBinary(["call", "mcp__remote__whoami", "{}", "--socket", socketPath]);
      expect(called).toMatchObject({ code: 0, stdout: "authorized\n" });
      const status = await runBinary(["auth", "status", "--json", "--socket", socketPath]);
      expect(JSON.parse(status.stdout)).toMatchObject({ servers: [{ name: "remote", loggedIn: true, refreshable: true, client: "registered" }] });
      for (const token of fixture.provider.issued) {
        expect(status.stdout).not.toContain(token);
        expect(daemon.stderr()).not.toContain(token);
      }
      const profiled = await runBinary(["tools", "--profile", "remoteOnly", "--json", "--socket", socketPath]);
      expect((JSON.parse(profiled.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual(["mcp__remote__whoami"]);
      const unknown = await runBinary(["tools", "--profile", "nope", "--socket", socketPath]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('unknown profile "nope"; configured profiles: remoteOnly');

      // The workspace's project file: untrusted until `toolpool trust`, then running.
      const projectServer = projectServerName("fx", realpathSync(workspace));
      expect((await client.servers()).servers.find((server) => server.name === projectServer)?.state).toBe("untrusted");
      const trusted = await runBinary(["trust", workspace, "--socket", socketPath]);
      expect(trusted.code).toBe(0);
      await waitFor(async () => (await client.servers()).servers.find((server) => server.name === projectServer)?.state === "connected", "the project's server connected");
    } finally {
      client.close();
    }
  });
});
