/** The compiled binary under test: dist/toolpool-<tier>, tier from TOOLPOOL_TEST_TIER (default pro). */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TIERS, isTierName, type TierName } from "../../features/tiers.ts";

export const REPO_ROOT = join(import.meta.dir, "..", "..");

export function testTier(): TierName {
  const tier = process.env.TOOLPOOL_TEST_TIER ?? "pro";
  if (!isTierName(tier)) throw new Error(`TOOLPOOL_TEST_TIER=${tier} is not a tier (${Object.keys(TIERS).join(", ")})`);
  return tier;
}

export function binaryPath(tier: TierName = testTier()): string {
  const path = join(REPO_ROOT, "dist", `toolpool-${tier}`);
  if (!existsSync(path)) throw new Error(`${path} is missing: build it first with \`bun run build.ts\` (npm test does)`);
  return path;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runBinary(args: string[], env: Record<string, string> = {}, tier?: TierName): Promise<RunResult> {
  const child = Bun.spawn([binaryPath(tier), ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

/** Starts `serve` and resolves once the socket answers; the caller stops it. */
export async function startBinaryDaemon(socketPath: string, extraArgs: string[] = [], env: Record<string, string> = {}, tier?: TierName, cwd?: string) {
  const child = Bun.spawn([binaryPath(tier), "serve", "--socket", socketPath, ...extraArgs], {
    env: { ...process.env, ...env },
    ...(cwd && { cwd }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const stderrChunks: string[] = [];
  void (async () => {
    for await (const chunk of child.stderr) stderrChunks.push(new TextDecoder().decode(chunk));
  })();
  const deadline = Date.now() + 10_000;
  while (!stderrChunks.join("").includes('"listening"')) {
    if (child.exitCode !== null) throw new Error(`daemon exited with ${child.exitCode}: ${stderrChunks.join("")}`);
    if (Date.now() > deadline) throw new Error(`daemon did not start: ${stderrChunks.join("")}`);
    await Bun.sleep(5);
  }
  return {
    child,
    stderr: () => stderrChunks.join(""),
    async [Symbol.asyncDispose]() {
      if (child.exitCode === null) {
        child.kill("SIGKILL");
        await child.exited;
      }
    },
  };
}
