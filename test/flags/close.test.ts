/**
 * Nothing the flags start (file watcher, stat poll, poll timer, a request in flight) may keep the
 * process alive after close(). Checked in a child process: it must exit on its own, promptly.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PayloadServer, payloadOf, tempDir } from "./helpers.ts";

const GROWTHBOOK_FLAGS = join(import.meta.dir, "..", "..", "src", "flags", "growthbook-flags.ts");

function childScript(apiHost: string, clientKey: string, dir: string, waitForSettled: boolean): string {
  return `
import { GrowthBookFlags } from ${JSON.stringify(GROWTHBOOK_FLAGS)};
const flags = new GrowthBookFlags({
  features: ["PREFETCH"],
  file: ${JSON.stringify(join(dir, "features.json"))},
  apiHost: ${JSON.stringify(apiHost)},
  clientKey: ${JSON.stringify(clientKey)},
  pollIntervalMs: 10,
  requestTimeoutMs: 60_000,
  stateDir: ${JSON.stringify(dir)},
});
${waitForSettled ? "await flags.settled();" : ""}
console.log(JSON.stringify(flags.values().disabled_tools));
await flags.close();
`;
}

async function runChild(source: string, dir: string): Promise<{ stdout: string; exitCode: number | null; exitedOnItsOwn: boolean }> {
  const script = join(dir, "child.ts");
  writeFileSync(script, source);
  const child = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "inherit" });
  // The bound is for a broken close(), where the child would never exit; a healthy one exits in well under a second.
  const exitedOnItsOwn = await Promise.race([child.exited.then(() => true), Bun.sleep(4_000).then(() => false)]);
  if (!exitedOnItsOwn) child.kill("SIGKILL");
  const stdout = await new Response(child.stdout).text();
  return { stdout, exitCode: child.exitCode, exitedOnItsOwn };
}

test.each([
  ["after a successful first fetch, with the poll timer armed", "serve", true, '["Bash"]\n'],
  ["with the first fetch still in flight", "hang", false, '["Edit"]\n'],
] as const)("the process exits after close() %s", async (_when, mode, waitForSettled, expected) => {
  await using server = new PayloadServer(payloadOf({ disabled_tools: ["Bash"] }));
  server.mode = mode;
  const dir = tempDir();
  writeFileSync(join(dir, "features.json"), JSON.stringify(payloadOf({ disabled_tools: ["Edit"] })));
  const result = await runChild(childScript(server.apiHost, server.clientKey, dir, waitForSettled), dir);
  expect(result).toEqual({ stdout: expected, exitCode: 0, exitedOnItsOwn: true });
}, 15_000);
