// test-plan: one tier — serve's start-up lines, the same in every tier.
/**
 * `serve` in a real terminal (a pty from script(1)): each start-up event is printed once, as the
 * friendly line; the JSON log lines come back with --log-format json. Skipped without script(1).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { binaryPath, runBinary } from "../helpers/binary.ts";

const scriptPath = Bun.which("script");

async function serveInTerminal(extra: string[]): Promise<string> {
  const socketPath = join(tempSocketDir(), "t.sock");
  const command = [binaryPath(), "serve", "--socket", socketPath, ...extra].map((word) => `'${word}'`).join(" ");
  const child = Bun.spawn([scriptPath!, "-qfec", command, "/dev/null"], { env: { ...process.env }, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const chunks: string[] = [];
  const reading = (async () => {
    for await (const chunk of child.stdout) chunks.push(new TextDecoder().decode(chunk));
  })();
  const deadline = Date.now() + 15_000;
  while (!chunks.join("").includes("listening on")) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start: ${chunks.join("")}`);
    await Bun.sleep(10);
  }
  expect((await runBinary(["stop", "--socket", socketPath])).code).toBe(0);
  await child.exited;
  await reading;
  return chunks.join("");
}

test.skipIf(scriptPath === null)("in a terminal serve prints the friendly lines only; --log-format json adds the JSON log", async () => {
  const plain = await serveInTerminal([]);
  expect(plain).toContain("listening on");
  expect(plain).not.toContain('"level":"info"');
  const json = await serveInTerminal(["--log-format", "json"]);
  expect(json).toContain("listening on");
  expect(json).toContain('"message":"listening"');
});

test.skipIf(scriptPath === null)("serve says which config it read; with --demo it says which demo servers the config's own replace", async () => {
  const dir = tempSocketDir();
  const config = join(dir, "config.json");
  await Bun.write(config, JSON.stringify({ mcpServers: { memory: { command: "sleep", args: ["1000"], disabled: true } } }));
  const text = (await serveInTerminal(["--config", config, "--demo"])).replaceAll("\r", "");
  expect(text).toContain(`  config: ${config}\n`);
  expect(text).toContain("  demo: the reference MCP servers except memory (your config's server of that name is used instead)\n");
  const none = (await serveInTerminal([])).replaceAll("\r", "");
  expect(none).toMatch(/ {2}config: (none found at .* — built-in defaults|\/.*config\.json)\n/);
});
