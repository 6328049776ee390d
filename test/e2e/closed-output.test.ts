// test-plan: one tier — the CLI's output handling, the same code in every tier.
/** A reader that quits early (`| head`) ends the CLI quietly: no EPIPE stack trace, no endless writing. */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { binaryPath, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";

setDefaultTimeout(60_000);

async function pipeline(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // `timeout` bounds a regression (the watch never ending) to a failed assertion instead of a hang.
  const child = Bun.spawn(["sh", "-c", `timeout 20 ${command}; echo "exit=$?" >&2`], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

test("status --watch | head -3 and tools | head -1 end at once, exit 0, with nothing on stderr", async () => {
  const socket = join(tempSocketDir(), "pipe.sock");
  await using _daemon = await startBinaryDaemon(socket);
  // `set -o pipefail`-free sh: the exit status printed is the toolpool side's, through a wrapper.
  const watch = await pipeline(`sh -c '${binaryPath()} status --watch --socket ${socket}; echo "toolpool=$?" >&2' | head -3`);
  expect({ lines: watch.stdout.trimEnd().split("\n").length, first: watch.stdout.startsWith("toolpool "), stderr: watch.stderr }).toEqual({ lines: 3, first: true, stderr: "toolpool=0\nexit=0\n" });
  const tools = await pipeline(`sh -c '${binaryPath()} tools --socket ${socket}; echo "toolpool=$?" >&2' | head -1`);
  expect({ lines: tools.stdout.trimEnd().split("\n").length, stderr: tools.stderr }).toEqual({ lines: 1, stderr: "toolpool=0\nexit=0\n" });
});
