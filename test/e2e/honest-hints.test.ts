/**
 * MCP hosts auto-approve on annotations, so over the socket no tool may claim `readOnlyHint: true`
 * or `destructiveHint: false` unless it holds for every input. Checked on the compiled binary for
 * every built-in of the tier and both meta-tools, in the proxy view and the standard (all tools) view.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startBinaryDaemon, testTier } from "../helpers/binary.ts";

/** The whole table: a tool missing here (a new built-in) fails the test until its hints are reviewed. */
const EXPECTED: Record<string, Record<string, boolean> | undefined> = {
  Bash: { openWorldHint: true },
  Read: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  Write: { destructiveHint: true, openWorldHint: false },
  Edit: { destructiveHint: true, openWorldHint: false },
  Glob: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  Grep: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  WebFetch: { readOnlyHint: true, destructiveHint: false, openWorldHint: true },
  NotebookEdit: { openWorldHint: false },
  TodoWrite: { readOnlyHint: true, destructiveHint: false },
  Sleep: { readOnlyHint: true, destructiveHint: false },
  CronCreate: undefined,
  CronList: { readOnlyHint: true, destructiveHint: false },
  CronDelete: { destructiveHint: true },
  RemoteTrigger: { openWorldHint: true },
  ToolSearch: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  // A router: what it does is what its target does, so it claims nothing.
  ExecuteExtraTool: undefined,
};

/** Tools whose effect depends on the input: never read-only, never "not destructive". */
const INPUT_DEPENDENT = ["Bash", "Write", "Edit", "NotebookEdit", "ExecuteExtraTool", "CronCreate", "RemoteTrigger"];

interface Listed {
  tools: { name: string; annotations?: Record<string, boolean> }[];
}

test(`${testTier()} binary: every tool's MCP annotations hold for every input`, async () => {
  const socketPath = join(tempSocketDir(), "h.sock");
  await using _daemon = await startBinaryDaemon(socketPath);
  for (const delivery of ["proxy", "standard"] as const) {
    using client = await RawClient.open(socketPath);
    await client.request("toolpool/session", { delivery });
    const listed = (await client.request("tools/list")).result as Listed;
    expect(listed.tools.length).toBeGreaterThan(3);
    for (const tool of listed.tools) {
      expect({ name: tool.name, known: tool.name in EXPECTED }).toEqual({ name: tool.name, known: true });
      expect({ name: tool.name, annotations: tool.annotations }).toEqual({ name: tool.name, annotations: EXPECTED[tool.name] });
      if (INPUT_DEPENDENT.includes(tool.name)) {
        expect(tool.annotations?.readOnlyHint).not.toBe(true);
        expect(tool.annotations?.destructiveHint).not.toBe(false);
      }
    }
    const names = listed.tools.map((tool) => tool.name);
    if (delivery === "proxy") expect(names).toEqual(expect.arrayContaining(["Bash", "ToolSearch", "ExecuteExtraTool"]));
    else expect(names).toEqual(expect.arrayContaining(["Bash", "Write", "WebFetch", "NotebookEdit"]));
  }
});
