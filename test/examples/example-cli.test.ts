import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers/binary.ts";
import { startExampleDaemon } from "./fixtures.ts";

/** The examples as a user runs them: `bun examples/<name>.ts`, no API key, so the scripted model. */
async function runExample(file: string, socketPath: string, extra: string[] = []) {
  const env: Record<string, string | undefined> = { ...process.env, ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined };
  const child = Bun.spawn([process.execPath, join(REPO_ROOT, "examples", file), "--socket", socketPath, "--json", ...extra], {
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stderr, report: stdout ? (JSON.parse(stdout) as Record<string, unknown>) : {} };
}

describe("the example agents from the command line, offline", () => {
  test.each([["anthropic-agent.ts"], ["openai-agent.ts"]])("%s runs its script end to end against the daemon", async (file) => {
    await using harness = await startExampleDaemon();
    const { code, stderr, report } = await runExample(file, harness.socketPath);
    expect({ code, mode: report.mode, requests: report.requests, compactions: report.compactions, answers: report.answers }).toEqual({
      code: 0,
      mode: "scripted",
      requests: 3,
      compactions: 0,
      answers: ["Done: I waited a moment with the Sleep tool."],
    });
    expect(stderr).toContain("Sleep");
    expect(stderr.split("\n")[0]).toMatch(/^(Anthropic|OpenAI): replaying a recorded session from .*examples\/scripted\/(anthropic|openai)\.json \(no (ANTHROPIC|OPENAI)_API_KEY set; set it to talk to the real API\)$/);
  });

  test("--prompt with a recording is refused, not silently answered by the recording", async () => {
    await using harness = await startExampleDaemon();
    const { code, stderr } = await runExample("openai-agent.ts", harness.socketPath, ["--prompt", "Find the TODOs in src"]);
    expect(code).toBe(1);
    expect(stderr).toStartWith("--prompt needs the real OpenAI API: set OPENAI_API_KEY. Without it this example replays a recording (");
  });

  test("no daemon: a clear message and exit 1", async () => {
    const { code, stderr } = await runExample("anthropic-agent.ts", join(REPO_ROOT, "no-such-dir", "x.sock"));
    expect(code).toBe(1);
    expect(stderr).toContain("no toolpool daemon on");
    expect(stderr).toContain("start one from the checkout with `./dist/toolpool-pro serve` (or `toolpool serve` once installed");
  });
});
