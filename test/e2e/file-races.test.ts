// test-plan: one tier — Read and Write over the socket, the same code in every tier.
/**
 * Symlink races against the compiled daemon over its real socket: a concurrent process swaps a
 * workspace directory for a symlink to an outside one while Read and Write run. No try may escape.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startBinaryDaemon } from "../helpers/binary.ts";

setDefaultTimeout(120_000);

const SWAP_DIRECTORY = join(import.meta.dir, "..", "fixtures", "races", "swap-directory.ts");

function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, prefix)));
}

async function startSwapper(path: string, outside: string): Promise<AsyncDisposable> {
  const swapper = Bun.spawn([process.execPath, SWAP_DIRECTORY, path, outside], { stdout: "pipe", stderr: "inherit" });
  const reader = swapper.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  const stop = async () => {
    swapper.kill("SIGKILL");
    await swapper.exited;
  };
  if (!new TextDecoder().decode(value).includes("ready")) {
    await stop();
    throw new Error("the swapper did not start");
  }
  return { [Symbol.asyncDispose]: stop };
}

describe("symlink races (compiled binary)", () => {
  test("Read never returns, and Write never creates, a file outside the roots while a directory is swapped for a symlink", async () => {
    const root = tempDir("race-ws-");
    const outside = tempDir("race-outside-");
    mkdirSync(join(root, "dir"));
    mkdirSync(join(outside, "dir"));
    writeFileSync(join(root, "dir", "f.txt"), "inside\n");
    writeFileSync(join(outside, "dir", "f.txt"), "OUTSIDE SECRET\n");
    const socketPath = join(tempSocketDir(), "race.sock");
    await using _daemon = await startBinaryDaemon(socketPath, [], {}, undefined, root);
    using client = await RawClient.open(socketPath);
    await using _swapper = await startSwapper(join(root, "dir"), join(outside, "dir"));
    let escapedReads = 0;
    for (let attempt = 0; attempt < 1500; attempt++) {
      const response = await client.request("toolpool/call", { name: "Read", input: { file_path: join(root, "dir", "f.txt") } });
      if (JSON.stringify(response.result).includes("OUTSIDE")) escapedReads++;
    }
    for (let attempt = 0; attempt < 300; attempt++) {
      await client.request("toolpool/call", { name: "Write", input: { file_path: join(root, "dir", `new-${attempt}.txt`), content: "written" } });
    }
    expect({ escapedReads, writtenOutside: readdirSync(join(outside, "dir")).filter((name) => name !== "f.txt") }).toEqual({
      escapedReads: 0,
      writtenOutside: [],
    });
  });
});
