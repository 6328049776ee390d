// test-plan: one tier — Bash rules on the daemon, the same code in every tier.
/**
 * Bash rules over the parse, on the compiled binary (the tree-sitter WebAssembly must be embedded in
 * it): the attacks that beat the old scanner (issue 15) delete or create nothing.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startBinaryDaemon } from "../helpers/binary.ts";

setDefaultTimeout(30_000);

function workspace(): string {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "bash-rules-")));
  for (const name of ["x", "f", "victim"]) writeFileSync(join(root, name), "keep\n");
  return root;
}

async function daemonWith(permissions: Record<string, unknown>, root: string) {
  const dir = tempSocketDir();
  const configPath = join(dir, "config.json");
  writeFileSync(configPath, JSON.stringify({ workspaceRoots: [root], permissions }));
  const socketPath = join(dir, "b.sock");
  return { socketPath, daemon: await startBinaryDaemon(socketPath, ["--config", configPath]) };
}

async function bash(client: RawClient, sessionId: string, command: string) {
  const reply = await client.request("toolpool/call", { sessionId, name: "Bash", input: { command } });
  const result = reply.result as { content: { text?: string }[]; isError: boolean };
  return { text: result.content.map((block) => block.text ?? "").join(""), isError: result.isError };
}

describe("Bash rules match a parse (compiled binary)", () => {
  test("allow Bash(echo *), deny Bash(rm *): quoting, expansion and redirect tricks are refused", async () => {
    const root = workspace();
    const { socketPath, daemon } = await daemonWith({ allow: ["Bash(echo *)"], deny: ["Bash(rm *)"] }, root);
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    const sessionId = ((await client.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
    const attacks = [
      "echo $'a\\'b' ; rm -f x",
      "echo ${x:-$(rm -f f)}",
      'echo "${x:-$(rm -f f)}"',
      "echo >&1file",
      "echo `rm -f victim`",
      "echo $(rm -f victim)",
      "bash -c 'rm -f victim'",
      "echo 'rm -f victim' | sh",
      "\\rm -f victim",
      "x=rm; $x -f victim",
    ];
    for (const command of attacks) {
      const result = await bash(client, sessionId, command);
      expect({ command, isError: result.isError, denied: result.text.startsWith("Permission denied for Bash:") }).toEqual({ command, isError: true, denied: true });
    }
    expect(readdirSync(root).sort()).toEqual(["f", "victim", "x"]);
    expect(await bash(client, sessionId, "echo 'a && b' $'c\\td'")).toEqual({ text: "a && b c\td\nExit code: 0", isError: false });
  });

  test("with no allow list, $(...) and backticks are checked against deny rules", async () => {
    const root = workspace();
    const { socketPath, daemon } = await daemonWith({ deny: ["Bash(rm *)"] }, root);
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    const sessionId = ((await client.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
    for (const command of ["echo $(rm -f x)", "echo `rm -f x`", "cat <(rm -f x)", "f() { rm -f x; }; f"]) {
      expect({ command, isError: (await bash(client, sessionId, command)).isError }).toEqual({ command, isError: true });
    }
    expect(existsSync(join(root, "x"))).toBe(true);
    expect(await bash(client, sessionId, "echo $(echo inner)")).toEqual({ text: "inner\nExit code: 0", isError: false });
  });
});
