// test-plan: one tier — Bash's kernel sandbox, the same code in every tier.
/**
 * The kernel sandbox Bash runs in, attacked over the socket against the compiled daemon: with Bash
 * fully allowed and `Read(**\/.env)` denied, programs the rule reader cannot see into (python3, a
 * script) must not read `.env`, write outside the roots, reach a loopback listener or the daemon's
 * own socket and token; every process of a call must end with the call and with the daemon; and
 * `sandbox.mode` must say what happens where there is no sandbox. Needs bubblewrap: on CI (CI=true)
 * a missing bwrap fails these tests instead of skipping them.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { bwrapWorks } from "../helpers/bwrap.ts";
import { runBinary, startBinaryDaemon } from "../helpers/binary.ts";

setDefaultTimeout(60_000);

const describeSandbox = bwrapWorks() ? describe : describe.skip;

const SECRET = `s3cret-${Math.random().toString(36).slice(2)}`;

interface Started {
  root: string;
  socketPath: string;
  stateDir: string;
  daemon: Awaited<ReturnType<typeof startBinaryDaemon>>;
  client: RawClient;
  bash: (command: string, timeout?: number) => Promise<{ text: string; isError: boolean }>;
}

async function start(config: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<Started> {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "sandbox-")));
  writeFileSync(join(root, ".env"), `TOKEN=${SECRET}\n`);
  const dir = tempSocketDir();
  const configPath = join(dir, "config.json");
  writeFileSync(configPath, JSON.stringify({ workspaceRoots: [root], ...config }));
  const socketPath = join(dir, "s.sock");
  const stateDir = join(process.env.XDG_STATE_HOME!, "toolpool");
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  // The HTTP bridge's token: a command that read it could call tools over loopback past its rules.
  writeFileSync(join(stateDir, "mcp-http-token"), `token-${SECRET}\n`, { mode: 0o600 });
  const daemon = await startBinaryDaemon(socketPath, ["--config", configPath], env);
  const client = await RawClient.open(socketPath);
  const sessionId = ((await client.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
  const bash = async (command: string, timeout?: number) => {
    const reply = (await client.request("toolpool/call", { sessionId, name: "Bash", input: { command, ...(timeout && { timeout }) } })).result as { content: { text: string }[]; isError: boolean };
    return { text: reply.content.map((block) => block.text).join(""), isError: reply.isError };
  };
  return { root, socketPath, stateDir, daemon, client, bash };
}

const DENY_ENV = { permissions: { deny: ["Read(**/.env)"] } };
const alive = (marker: string) => Bun.spawnSync(["pgrep", "-fx", marker]).stdout.toString().trim();
const uniqueSleep = () => `sleep ${300 + Math.floor(Math.random() * 600)}.${Math.floor(Math.random() * 90) + 10}`;

async function waitFor(probe: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

describeSandbox("Bash in the kernel sandbox", () => {
  test("with Read(**/.env) denied, no program reveals .env; with the rule gone the same commands read it", async () => {
    const denied = await start(DENY_ENV);
    await using _d = denied.daemon;
    using _c = denied.client;
    writeFileSync(join(denied.root, "show.sh"), "cat .env; cp .env copy; cat copy\n");
    for (const command of [`python3 -c "print(open('.env').read())"`, "bash show.sh", "cat .env", "cp .env x; cat x", `python3 -c "import shutil; shutil.copy('.env','y'); print(open('y').read())"`]) {
      const { text } = await denied.bash(command);
      expect({ command, revealed: text.includes(SECRET) }).toEqual({ command, revealed: false });
    }
    expect(existsSync(join(denied.root, "copy")) && (await Bun.file(join(denied.root, "copy")).text()).includes(SECRET)).toBe(false);

    const open = await start();
    await using _o = open.daemon;
    using _oc = open.client;
    writeFileSync(join(open.root, "show.sh"), "cat .env\n");
    for (const command of [`python3 -c "print(open('.env').read())"`, "bash show.sh", "cat .env", "cp .env x; cat x"]) {
      const { text } = await open.bash(command);
      expect({ command, revealed: text.includes(SECRET) }).toEqual({ command, revealed: true });
    }
  });

  test("the denied file cannot be hard-linked, renamed, removed, overwritten or reached through a symlink", async () => {
    const { root, daemon, client, bash } = await start(DENY_ENV);
    await using _d = daemon;
    using _c = client;
    const attacks = [
      `python3 -c "import os; os.link('.env', 'hard')"; cat hard`,
      `python3 -c "import os; os.rename('.env', 'moved')"; cat moved`,
      `python3 -c "import os; os.symlink('.env', 'soft'); print(open('soft').read())"`,
      `python3 -c "import os; os.unlink('.env')"`,
      `python3 -c "open('.env', 'w').write('replaced')"`,
      // A nested user namespace has every capability, but the mounts it inherits are locked together.
      "bash unmount.sh",
    ];
    writeFileSync(join(root, "unmount.sh"), `p="$PWD/.e""nv"; unshare -Urm sh -c "umount $p; umount -l $p; cat $p"\n`);
    for (const command of attacks) expect({ command, revealed: (await bash(command)).text.includes(SECRET) }).toEqual({ command, revealed: false });
    expect(await Bun.file(join(root, ".env")).text()).toBe(`TOKEN=${SECRET}\n`);
    expect([existsSync(join(root, "hard")), existsSync(join(root, "moved"))]).toEqual([false, false]);
  });

  test("writes land only in the roots and the private TMPDIR; outside them they fail", async () => {
    const { root, daemon, client, bash } = await start(DENY_ENV);
    await using _d = daemon;
    using _c = client;
    const outsideTest = join(process.env.TOOLPOOL_TEST_ROOT!, `outside-${SECRET}`);
    const outsideTmp = `/tmp/toolpool-sandbox-escape-${SECRET}`;
    const home = join(process.env.HOME!, `escape-${SECRET}`);
    for (const target of [outsideTest, outsideTmp, home]) {
      const { text } = await bash(`python3 -c "open('${target}','w').write('x')"; echo "rc=$?"`);
      expect({ target, failed: text.includes("rc=1"), exists: existsSync(target) }).toEqual({ target, failed: true, exists: false });
    }
    const inside = await bash(`echo in > made && cat made && echo t > "$TMPDIR/t" && cat "$TMPDIR/t" && echo "$TMPDIR"`);
    const [, , tmpDir] = inside.text.split("\n");
    expect(inside.text.startsWith("in\nt\n")).toBe(true);
    expect(await Bun.file(join(root, "made")).text()).toBe("in\n");
    // The private temp dir is gone after the call.
    expect(existsSync(tmpDir!)).toBe(false);
  });

  test("the daemon's socket and the HTTP bridge token are out of reach", async () => {
    const { socketPath, stateDir, daemon, client, bash } = await start();
    await using _d = daemon;
    using _c = client;
    const token = await bash(`cat ${join(stateDir, "mcp-http-token")}; ls ${stateDir}`);
    expect(token.text.includes(SECRET)).toBe(false);
    const socket = await bash(`python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); s.sendall(b'{}\\\\n'); print('CONNECTED')"`);
    expect(socket.text.includes("CONNECTED")).toBe(false);
    // No descriptor of the daemon's (its listening socket, its databases) is inherited.
    const fds = await bash(`python3 -c "import os; print(sorted(int(fd) for fd in os.listdir('/proc/self/fd')))"`);
    expect(fds.text).toBe("[0, 1, 2, 3]\nExit code: 0");
  });

  test("network none: a loopback listener cannot be reached; network all: it can", async () => {
    let accepted = 0;
    const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void accepted++, data: () => {} } });
    try {
      const connect = `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${listener.port}), timeout=5); print('CONNECTED')"`;
      const none = await start();
      {
        await using _d = none.daemon;
        using _c = none.client;
        expect((await none.bash(connect)).text.includes("CONNECTED")).toBe(false);
        expect(accepted).toBe(0);
      }
      const all = await start({ sandbox: { network: "all" } });
      await using _d = all.daemon;
      using _c = all.client;
      expect((await all.bash(connect)).text).toContain("CONNECTED");
      await waitFor(() => accepted === 1, "the listener to see the connection");
    } finally {
      listener.stop(true);
    }
  });

  test("ordinary work inside the roots runs sandboxed: git, a Node script, a Python script, a pipeline", async () => {
    const { root, daemon, client, bash } = await start(DENY_ENV);
    await using _d = daemon;
    using _c = client;
    writeFileSync(join(root, "sum.js"), "console.log([1, 2, 3].reduce((a, b) => a + b));\n");
    writeFileSync(join(root, "sum.py"), "import sys\nprint(sum(int(x) for x in sys.stdin))\n");
    const git = await bash("git init -q repo && cd repo && echo a > f && git add f && git -c user.name=t -c user.email=t@t commit -qm first && git log --format=%s");
    expect(git.text).toBe("first\nExit code: 0");
    expect((await bash("node sum.js")).text).toBe("6\nExit code: 0");
    expect((await bash("seq 1 4 | python3 sum.py")).text).toBe("10\nExit code: 0");
    expect((await bash("printf 'b\\na\\nb\\n' > words && sort words | uniq -c | sort -rn | head -1 | tr -s ' '")).text).toBe(" 2 b\nExit code: 0");
  });

  test("a background process ends with the call: at its end, at its timeout, at cancel", async () => {
    const { daemon, client, bash } = await start();
    await using _d = daemon;
    using _c = client;
    const atEnd = uniqueSleep();
    expect((await bash(`(setsid ${atEnd} >/dev/null 2>&1 &); echo started`)).text).toContain("started");
    await waitFor(() => alive(atEnd) === "", "the process left at the call's end to be gone");

    const atTimeout = uniqueSleep();
    expect((await bash(`(setsid ${atTimeout} >/dev/null 2>&1 &); sleep 100`, 1_000)).text).toContain("timed out");
    await waitFor(() => alive(atTimeout) === "", "the process left at the timeout to be gone");

    const atCancel = uniqueSleep();
    const sessionId = ((await client.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
    client.send({ jsonrpc: "2.0", id: 9001, method: "toolpool/call", params: { sessionId, name: "Bash", input: { command: `(setsid ${atCancel} >/dev/null 2>&1 &); sleep 100` } } });
    await waitFor(() => alive(atCancel) !== "", "the cancelled call's process to start");
    client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9001, reason: "test" } });
    await waitFor(() => alive(atCancel) === "", "the process of the cancelled call to be gone");
  });

  test("kill -9 of the daemon ends every process a running call started", async () => {
    const { daemon, client } = await start();
    using _c = client;
    const marker = uniqueSleep();
    const sessionId = ((await client.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
    client.send({ jsonrpc: "2.0", id: 9002, method: "toolpool/call", params: { sessionId, name: "Bash", input: { command: `(setsid ${marker} >/dev/null 2>&1 &); sleep 100` } } });
    await waitFor(() => alive(marker) !== "", "the call's process to start");
    const pids = alive(marker).split("\n").map(Number);
    daemon.child.kill("SIGKILL");
    await daemon.child.exited;
    try {
      await waitFor(() => pids.every((pid) => !existsSync(`/proc/${pid}`) || Bun.spawnSync(["ps", "-o", "stat=", "-p", String(pid)]).stdout.toString().trim().startsWith("Z")), "the process to die with the daemon");
    } finally {
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {}
      }
    }
  });

  test("a client cannot widen the sandbox: a session that asks for it is refused, and its commands stay confined", async () => {
    const { root, daemon, client } = await start(DENY_ENV);
    await using _d = daemon;
    using _c = client;
    const asked = await client.request("toolpool/session", { sandbox: { mode: "off", network: "all" } });
    expect((asked.error as { code: number }).code).toBe(-32602);
    // A session that adds permissions (allow everything) still runs confined: the rules and the sandbox are separate.
    const opened = await client.request("toolpool/session", { permissions: { mode: "default", allow: ["Bash", "Read", "Write"] } });
    const sessionId = (opened.result as { sessionId: string }).sessionId;
    const reply = (await client.request("toolpool/call", { sessionId, name: "Bash", input: { command: `python3 -c "print(open('.env').read())"; touch "$HOME/escaped"` } })).result as { content: { text: string }[] };
    expect(reply.content.map((block) => block.text).join("").includes(SECRET)).toBe(false);
    expect(existsSync(join(process.env.HOME!, "escaped"))).toBe(false);
    expect(existsSync(join(root, ".env"))).toBe(true);
  });

  test("the status says Bash is confined, with the probe time", async () => {
    const { socketPath, daemon, client } = await start();
    await using _d = daemon;
    using _c = client;
    // Right at start the probe may still be running ("sandbox not probed yet").
    const probed = async () => {
      const status = JSON.parse((await runBinary(["status", "--json", "--socket", socketPath])).stdout);
      return status.sandbox.summary === "sandbox not probed yet" ? undefined : status;
    };
    let status: { sandbox: Record<string, unknown> } | undefined;
    for (const deadline = Date.now() + 10_000; !(status = await probed()) && Date.now() < deadline; ) await Bun.sleep(50);
    if (!status) throw new Error("the sandbox probe never answered");
    // Landlock is reported where the kernel has it (ABI 7 here), absent elsewhere.
    expect(["number", "undefined"]).toContain(typeof status.sandbox.landlockAbi);
    const { landlockAbi: _abi, ...rest } = status.sandbox;
    const facts: Record<string, unknown> = { ...rest, probeMs: typeof status.sandbox.probeMs };
    expect(facts).toEqual({
      mode: "auto",
      network: "none",
      backend: "bubblewrap",
      confined: true,
      summary: "Bash runs in bubblewrap: writes only in the workspace roots and a private temp dir, deny-rule paths hidden, no network, every process ends with the call",
      userNamespaces: true,
      probeMs: "number",
    });
  });
});

describe("where there is no sandbox", () => {
  const missing = { TOOLPOOL_BWRAP: "/nonexistent/bwrap" };

  test("mode required refuses Bash with the reason; status says so", async () => {
    const { socketPath, root, daemon, client, bash } = await start({ sandbox: "required" }, missing);
    await using _d = daemon;
    using _c = client;
    const reply = await bash("touch ran");
    expect(reply).toEqual({
      isError: true,
      text: 'The command was not run: the config requires a sandbox (sandbox.mode "required") and there is none here (bubblewrap was named at /nonexistent/bwrap, which does not exist).',
    });
    expect(existsSync(join(root, "ran"))).toBe(false);
    const status = await runBinary(["status", "--socket", socketPath]);
    expect(status.stdout).toContain('  sandbox: NOT CONFINED — mode required, network none: no sandbox here (bubblewrap was named at /nonexistent/bwrap, which does not exist); sandbox.mode is "required", so Bash calls are refused');
  });

  test("mode auto runs Bash on the rules alone and says so at start, in status and in explain", async () => {
    const { socketPath, daemon, client, bash } = await start({}, missing);
    await using _d = daemon;
    using _c = client;
    expect((await bash("echo unconfined")).text).toBe("unconfined\nExit code: 0");
    const weakness = "no sandbox here (bubblewrap was named at /nonexistent/bwrap, which does not exist): Bash commands run unconfined and only the permission rules, which read command lines, stand between a program and the system";
    await waitFor(() => daemon.stderr().includes(`"sandbox: ${weakness}"`), "the start-up warning");
    const status = JSON.parse((await runBinary(["status", "--json", "--socket", socketPath])).stdout);
    expect({ confined: status.sandbox.confined, summary: status.sandbox.summary }).toEqual({ confined: false, summary: weakness });
    const explained = JSON.parse((await runBinary(["explain", "Bash", "--json", "--socket", socketPath])).stdout);
    expect(explained.decisions.find((decision: { step: string }) => decision.step === "sandbox")).toEqual({ step: "sandbox", verdict: "note", reason: `sandbox mode auto, network none: ${weakness}` });
  });

  test("a bad sandbox setting is refused at start, naming the field", async () => {
    const dir = tempSocketDir();
    const configPath = join(dir, "config.json");
    writeFileSync(configPath, JSON.stringify({ sandbox: { mode: "sometimes" } }));
    const result = await runBinary(["serve", "--socket", join(dir, "x.sock"), "--config", configPath]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("sandbox");
  });
});
