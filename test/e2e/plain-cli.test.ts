// test-plan: one tier — the CLI's wording, the same code in every tier.
/** The CLI speaks the user's language on the built binary: no protocol codes, short answers to typos. */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { runBinary, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";

setDefaultTimeout(60_000);

test("--version and -V print the version line; a mistyped command prints the suggestion and one line, not the usage", async () => {
  const version = await runBinary(["version"]);
  for (const flag of ["--version", "-V"]) {
    const result = await runBinary([flag]);
    expect({ flag, code: result.code, stdout: result.stdout }).toEqual({ flag, code: 0, stdout: version.stdout });
  }
  expect(version.stdout).toStartWith("toolpool ");
  const typo = await runBinary(["sttus"]);
  expect({ code: typo.code, stderr: typo.stderr }).toEqual({ code: 2, stderr: 'toolpool: unknown command "sttus" (did you mean "status"?); `toolpool help` lists the commands\n' });
});

test("daemon refusals read as sentences; call of a misspelt tool suggests the name; explain without --session answers for the defaults", async () => {
  const socket = join(tempSocketDir(), "plain.sock");
  await using _daemon = await startBinaryDaemon(socket);
  const profile = await runBinary(["tools", "--profile", "nope", "--socket", socket]);
  expect({ code: profile.code, stderr: profile.stderr }).toEqual({ code: 1, stderr: 'toolpool: unknown profile "nope"; the config defines no profiles\n' });
  const call = await runBinary(["call", "read", "{}", "--socket", socket]);
  expect({ code: call.code, first: call.stderr.split(";")[0] }).toEqual({ code: 1, first: 'toolpool: there is no tool named "read" (did you mean "Read"?)' });
  const read = await runBinary(["explain", "Read", "--socket", socket]);
  expect(read.stdout.split("\n").at(-2)).toBe("  in the tools array: yes; callable: yes");
  const fetch = await runBinary(["explain", "WebFetch", "--socket", socket]);
  expect(fetch.stdout).toContain("WebFetch (a new session with the daemon's defaults): WebFetch is deferred");
});

test("toolpool sessions lists the session ids explain --session takes", async () => {
  const socket = join(tempSocketDir(), "sessions.sock");
  await using _daemon = await startBinaryDaemon(socket);
  const { ToolpoolClient } = await import("../../src/client/client.ts");
  const client = await ToolpoolClient.connect(socket);
  try {
    const { sessionId } = await client.session({ clientName: "my-agent", model: "claude-sonnet-4-5" });
    const listed = await runBinary(["sessions", "--socket", socket, "--json"]);
    const result = JSON.parse(listed.stdout) as { sessions: { id: string; clientName: string; attached: number }[]; more: number };
    expect(result.sessions.map((session) => [session.id, session.clientName, session.attached])).toEqual([[sessionId, "my-agent", 1]]);
    const text = await runBinary(["sessions", "--socket", socket]);
    expect(text.stdout.split("\n")[0]).toStartWith(`${sessionId}  attached my-agent`);
    const explained = await runBinary(["explain", "Read", "--session", sessionId, "--socket", socket]);
    expect(explained.stdout.split("\n")[0]).toStartWith(`Read (session ${sessionId})`);
  } finally {
    client.close();
  }
});
