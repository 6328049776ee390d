// test-plan: one tier — Bash rules on the daemon, the same code in every tier.
/**
 * Bash rules over the parse, on the compiled binary (the tree-sitter WebAssembly must be embedded in
 * it): the attacks that beat the old scanner (issue 15) and the reader (issue 23) delete, create,
 * overwrite or show nothing, and a heavy rule check does not stall other clients or a stop.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startBinaryDaemon } from "../helpers/binary.ts";
import { bwrapWorks } from "../helpers/bwrap.ts";

setDefaultTimeout(30_000);

function workspace(): string {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "bash-rules-")));
  for (const name of ["x", "f", "victim"]) writeFileSync(join(root, name), "keep\n");
  return root;
}

async function daemonWith(permissions: Record<string, unknown>, root: string, sandbox?: { mode: "off" | "auto" }) {
  const dir = tempSocketDir();
  const configPath = join(dir, "config.json");
  writeFileSync(configPath, JSON.stringify({ workspaceRoots: [root], permissions, ...(sandbox && { sandbox }) }));
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

async function openSession(client: RawClient, params: Record<string, unknown> = {}): Promise<string> {
  return ((await client.request("toolpool/session", params)).result as { sessionId: string }).sessionId;
}

describe("issue 23: spellings bash reads differently from the reader (compiled binary)", () => {
  test("with only Bash(echo *), Bash(printf *) and Bash(ls *) allowed, none runs rm or overwrites a file", async () => {
    const root = workspace();
    const { socketPath, daemon } = await daemonWith({ allow: ["Bash(echo *)", "Bash(printf *)", "Bash(ls *)"], deny: [`Edit(${root}/victim)`] }, root);
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    const sessionId = await openSession(client);
    const attacks = [
      "echo $'\\\\' ; rm -f x ; #'",
      "echo a \\ #;rm -f x",
      "echo <<E''OF\nEOF\nrm -f x\nE''OF",
      "echo x <<<\\ \nrm -f x",
      "printf -v 'BASH_CMDS[ls]' %s /bin/rm; ls x",
      "echo PWN 3<victim 1>&3 >/dev/stdout",
    ];
    // Every attack is sent and judged, so a failure lists each spelling that got through.
    const outcomes: { command: string; denied: boolean }[] = [];
    for (const command of attacks) {
      const result = await bash(client, sessionId, command);
      outcomes.push({ command, denied: result.isError && result.text.startsWith("Permission denied for Bash:") });
    }
    expect(outcomes).toEqual(attacks.map((command) => ({ command, denied: true })));
    expect({ files: readdirSync(root).sort(), victim: readFileSync(join(root, "victim"), "utf8") }).toEqual({ files: ["f", "victim", "x"], victim: "keep\n" });
    expect(await bash(client, sessionId, "echo fine")).toEqual({ text: "fine\nExit code: 0", isError: false });
  });

  test("with Bash(rm:*) and Read(ROOT/.env) denied and no sandbox, the reader alone refuses every spelling: none removes x or shows .env", async () => {
    const root = workspace();
    writeFileSync(join(root, ".env"), "SECRET-23\n");
    // The sandbox off: the rule reader is the only line here, so it must fail closed on its own.
    const { socketPath, daemon } = await daemonWith({ deny: ["Bash(rm:*)", `Read(${root}/.env)`] }, root, { mode: "off" });
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    const sessionId = await openSession(client);
    const attacks = [
      "rm -f x", "rm", "bash -Cc 'rm -f x'", "sh -Ec 'rm -f x'", "rbash -c 'rm -f x'", "ssh-agent rm -f x", "pyenv exec rm -f x",
      "BASH_CMDS[ls]=/bin/rm; ls x", "shopt -s expand_aliases\nBASH_ALIASES[ls]=rm\nls -f x",
      "read y <<< 'a[$(rm -f x)]'; a[y]=1", "read y <<< 'a[$(rm -f x)]'; echo ${PWD:y}", "declare -i n; read y <<< 'a[$(rm -f x)]'; n=y",
      "date -f .env", "xargs -a.env echo", "file -f.env", `cat /pro?/self/root${root}/.env`, "ln -s . l; cat l/.env",
    ];
    const outcomes: { command: string; denied: boolean; shown: boolean }[] = [];
    for (const command of attacks) {
      const result = await bash(client, sessionId, command);
      outcomes.push({ command, denied: result.isError && result.text.startsWith("Permission denied for Bash:"), shown: result.text.includes("SECRET-23") });
    }
    expect(outcomes).toEqual(attacks.map((command) => ({ command, denied: true, shown: false })));
    expect(readdirSync(root).sort()).toEqual([".env", "f", "victim", "x"]);
    expect(await bash(client, sessionId, "cat f && date -d @0 -u +%Y")).toEqual({ text: "keep\n1970\nExit code: 0", isError: false });
  });

  test.skipIf(!bwrapWorks())("in the kernel sandbox, the spellings the reader can only suspect run, and the kernel keeps .env from them", async () => {
    const root = workspace();
    writeFileSync(join(root, ".env"), "SECRET-23\n");
    const { socketPath, daemon } = await daemonWith({ deny: [`Read(${root}/.env)`] }, root, { mode: "auto" });
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    const sessionId = await openSession(client);
    // The first Bash call waits for the sandbox probe; status answers from it after that.
    await bash(client, sessionId, "true");
    const status = (await client.request("toolpool/status", {})).result as { sandbox?: { confined: boolean } };
    expect(status.sandbox?.confined).toBe(true);
    const outcomes: { command: string; ran: boolean; shown: boolean }[] = [];
    for (const command of [`cat /pro?/self/root${root}/.env`, "ln -s . l; cat l/.env", "cat *env* .e?v", 'f=.env; cat "$f"']) {
      const result = await bash(client, sessionId, command);
      outcomes.push({ command, ran: !result.text.startsWith("Permission denied"), shown: result.text.includes("SECRET-23") });
    }
    expect(outcomes.filter((outcome) => !outcome.ran || outcome.shown)).toEqual([]);
    // What must match is still the reader's to refuse.
    expect((await bash(client, sessionId, "cat .env")).text).toStartWith("Permission denied for Bash:");
  });
});

describe("issue 23: a heavy rule check (1,000 deny rules, 64 KiB commands) on the compiled binary", () => {
  const heavyRules = Array.from({ length: 1000 }, (_, index) => `Bash(${"*x".repeat(450)}${index}*)`);
  const heavyCommands = [`echo ${"ab".repeat(32_000)}`, `echo ${"word ".repeat(13_000)}`, `echo ${"$(a) ".repeat(1_900)}${"b".repeat(50_000)}`];

  test("another client's pings are answered while the heavy calls run, and each heavy call ends with a verdict", async () => {
    const root = workspace();
    const { socketPath, daemon } = await daemonWith({}, root);
    await using _daemon = daemon;
    using heavy = await RawClient.open(socketPath);
    using pinger = await RawClient.open(socketPath);
    const sessionId = await openSession(heavy, { permissions: { deny: heavyRules } });
    let settled = 0;
    const calls = Promise.all(heavyCommands.map((command) => bash(heavy, sessionId, command).finally(() => settled++)));
    // Condition, not time: pings keep being answered while the heavy calls are still in flight.
    let answeredDuring = 0;
    while (settled < heavyCommands.length) {
      await pinger.request("ping");
      if (settled < heavyCommands.length) answeredDuring++;
    }
    const results = await calls;
    expect(answeredDuring).toBeGreaterThan(heavyCommands.length);
    // Each call was judged: allowed (nothing matched) or refused, never stuck.
    expect(results.map((result) => result.isError ? result.text.startsWith("Permission denied for Bash:") : result.text.endsWith("Exit code: 0"))).toEqual([true, true, true]);
  });

  test("SIGTERM during heavy rule checks stops the daemon within its 10 s budget", async () => {
    const root = workspace();
    const { socketPath, daemon } = await daemonWith({}, root);
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    const sessionId = await openSession(client, { permissions: { deny: heavyRules } });
    heavyCommands.forEach((command, index) => client.send({ jsonrpc: "2.0", id: `heavy-${index}`, method: "toolpool/call", params: { sessionId, name: "Bash", input: { command } } }));
    await client.request("ping");
    const started = performance.now();
    daemon.child.kill("SIGTERM");
    const exited = await Promise.race([daemon.child.exited, Bun.sleep(10_000).then(() => "timed out" as const)]);
    expect({ exited, withinBudget: performance.now() - started < 10_000 }).toEqual({ exited: 0, withinBudget: true });
  });
});
