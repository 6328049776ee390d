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
      expect(waiting.reason).toBe(`waiting for approval: project file ${a.file} is not trusted (or changed since it was); run \`toolpool trust ${a.file}\``);
      expect((await client.status()).mcpServers).toMatchObject({ untrusted: 1 });
      expect(existsSync(a.marker)).toBe(false);
      expect(await toolsOf([a.root])).toEqual(["Read"]);

      // Approve alpha: its server starts, and only alpha's sessions see its tools.
      const approved = trust(a.root, harness.socketPath);
      const approvedText = await new Response(approved.stdout).text();
      expect(await approved.exited).toBe(0);
      expect(approvedText).toContain(`trusted ${a.file}`);
      expect(approvedText).toContain(`fx: sh -c touch "${a.marker}"`);
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
});
