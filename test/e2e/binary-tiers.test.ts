import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { TIERS } from "../../features/tiers.ts";
import { binaryPath, runBinary, startBinaryDaemon, testTier } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { RawClient } from "../helpers/raw-client.ts";

/** A string only Sleep's code contains (from its result text). */
const SLEEP_MARKER = "Woke early after";
/** A string only the prefetch handlers contain (a log message). */
const PREFETCH_MARKER = "turnStarted ignored";

describe(`compiled binary (${testTier()})`, () => {
  test("version --json prints the tier and its compiled features", async () => {
    const { code, stdout } = await runBinary(["version", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ tier: testTier(), version: expect.any(String), features: [...TIERS[testTier()]], compiled: true });
  });

  test("gated code is absent from lite and present in the tiers that have its flag", () => {
    for (const tier of ["lite", "standard", "pro"] as const) {
      const bytes = readFileSync(binaryPath(tier));
      const hasSleep = bytes.includes(Buffer.from(SLEEP_MARKER));
      const hasPrefetch = bytes.includes(Buffer.from(PREFETCH_MARKER));
      const flags = TIERS[tier] as readonly string[];
      expect({ tier, hasSleep, hasPrefetch }).toEqual({ tier, hasSleep: flags.includes("PROACTIVE"), hasPrefetch: flags.includes("PREFETCH") });
    }
    // Scans three ~100 MB binaries: seconds on a busy machine.
  }, 30_000);

  test("no daemon: status says so and exits 3", async () => {
    const { code, stderr } = await runBinary(["status", "--socket", "/tmp/toolpool-none-here/x.sock"]);
    expect(code).toBe(3);
    expect(stderr).toContain("no daemon is running on /tmp/toolpool-none-here/x.sock");
  });

  test("unknown command and bad flags are usage errors (exit 2)", async () => {
    expect((await runBinary(["frobnicate"])).code).toBe(2);
    expect((await runBinary(["status", "--nope"])).code).toBe(2);
  });
});

describe("each tier's tool list", () => {
  test(`the running ${testTier()} binary serves exactly its tier's built-in tools`, async () => {
    const socketPath = `${tempSocketDir()}/t.sock`;
    await using _daemon = await startBinaryDaemon(socketPath);
    using client = await RawClient.open(socketPath);
    const listed = (await client.request("toolpool/tools")).result as { tools: { name: string; source: string }[] };
    const flags = TIERS[testTier()] as readonly string[];
    const expected = [
      "Bash", "Edit", "Glob", "Grep", "NotebookEdit", "Read", "TodoWrite", "WebFetch", "Write",
      ...(flags.includes("PROACTIVE") ? ["Sleep"] : []),
      ...(flags.includes("AGENT_TRIGGERS") ? ["CronCreate", "CronDelete", "CronList"] : []),
      ...(flags.includes("AGENT_TRIGGERS_REMOTE") ? ["RemoteTrigger"] : []),
    ].sort();
    expect(listed.tools.filter((tool) => tool.source === "builtin").map((tool) => tool.name)).toEqual(expected);
  });
});
