// test-plan: one tier — the README runs the pro binary by name.
/**
 * The README's "A first session", run exactly as written against the built pro binary: a daemon
 * started the way `npm start` starts it (`serve --demo` from the checkout), then each command line
 * of the README's block through sh, on the default socket. Set TOOLPOOL_PRINT_README=1 to print
 * what each command printed.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ToolpoolClient } from "../../src/client/client.ts";
import { binaryPath, REPO_ROOT, runBinary, testTier } from "../helpers/binary.ts";

setDefaultTimeout(60_000);

/** The command lines of the README's first-session block, comments stripped. */
export function firstSessionCommands(readme: string): string[] {
  const section = readme.slice(readme.indexOf("## A first session"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#\s.*$/, "").trim())
    .filter(Boolean);
}

/** What each command must show besides exiting 0. */
const EXPECT: [RegExp, (stdout: string) => boolean][] = [
  [/ status$/, (out) => /^toolpool \S+ \(pro/.test(out) && out.includes("MCP servers: 4")],
  [/ tools$/, (out) => out.includes("mcp__memory__create_entities") && /\d+ tools\n$/.test(out)],
  [/ servers$/, (out) => ["everything", "memory", "filesystem", "sequential-thinking"].every((name) => new RegExp(`^${name}\\s+connected`, "m").test(out))],
  [/ search /, (out) => out.split("\n")[0]!.startsWith("mcp__memory__create_entities")],
  [/ flags$/, (out) => out.trim().split("\n").length >= 2],
  [/ call Read /, (out) => out.includes("# toolpool")],
  [/ version --json$/, (out) => (JSON.parse(out) as { tier: string }).tier === "pro"],
  [/ stop$/, (out) => out.startsWith("stopped toolpool (pid ")],
];

test.skipIf(testTier() !== "pro")("README: the first-session commands run as written against the built binary", async () => {
  const commands = firstSessionCommands(readFileSync(join(REPO_ROOT, "README.md"), "utf8"));
  expect(commands.length).toBe(EXPECT.length);
  expect(commands.every((line) => line.startsWith("./dist/toolpool-pro "))).toBe(true);
  // `npm start` without the build: the daemon on the default socket, from the checkout.
  const daemon = Bun.spawn([binaryPath("pro"), "serve", "--demo"], { cwd: REPO_ROOT, env: { ...process.env }, stdout: "ignore", stderr: "ignore" });
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const servers = await runBinary(["servers", "--json"]).catch(() => undefined);
      const parsed = servers?.code === 0 ? (JSON.parse(servers.stdout) as { servers: { state: string }[] }) : undefined;
      if (parsed && parsed.servers.length === 4 && parsed.servers.every((server) => server.state === "connected")) break;
      if (Date.now() > deadline || daemon.exitCode !== null) throw new Error("the demo daemon did not come up with its four servers");
      await Bun.sleep(50);
    }
    for (const [index, line] of commands.entries()) {
      const child = Bun.spawn(["sh", "-c", line], { cwd: REPO_ROOT, env: { ...process.env }, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      if (process.env.TOOLPOOL_PRINT_README) process.stdout.write(`$ ${line}\n${stdout.split("\n").slice(0, 8).join("\n")}\n`);
      const [pattern, sensible] = EXPECT[index]!;
      expect({ line, code, matches: pattern.test(line), sensible: sensible(stdout), stderr }).toEqual({ line, code: 0, matches: true, sensible: true, stderr: "" });
    }
    await daemon.exited;
  } finally {
    if (daemon.exitCode === null) {
      daemon.kill("SIGKILL");
      await daemon.exited;
    }
  }
  // The last command stopped it: the default socket is free again.
  await expect(ToolpoolClient.connect()).rejects.toThrow("no toolpool daemon is running");
});
