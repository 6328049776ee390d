// test-plan: one tier — hostile pass over Bash's kernel sandbox (issue 23 follow-up).
/**
 * Attacks on the walk that turns path deny rules into the sandbox's masks, over the socket against
 * the compiled daemon: what one confined call leaves behind must not make the next call's walk skip
 * the directory that holds a denied file.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { bwrapWorks } from "../helpers/bwrap.ts";
import { startBinaryDaemon } from "../helpers/binary.ts";

setDefaultTimeout(60_000);
const describeSandbox = bwrapWorks() ? describe : describe.skip;
const SECRET = `s3cret-${Math.random().toString(36).slice(2)}`;

async function start(root: string, config: Record<string, unknown>, env: Record<string, string> = {}) {
  const dir = tempSocketDir();
  const configPath = join(dir, "config.json");
  writeFileSync(configPath, JSON.stringify({ workspaceRoots: [root], ...config }));
  const socketPath = join(dir, "s.sock");
  const daemon = await startBinaryDaemon(socketPath, ["--config", configPath], env);
  const client = await RawClient.open(socketPath);
  const sessionId = ((await client.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
  const bash = async (command: string) => {
    const reply = (await client.request("toolpool/call", { sessionId, name: "Bash", input: { command } })).result as { content: { text: string }[]; isError: boolean };
    return { text: reply.content.map((block) => block.text).join(""), isError: reply.isError };
  };
  return { daemon, client, bash, socketPath };
}

const CONFIG = { permissions: { mode: "bypass", deny: ["Read(**/.env)"] } };

describeSandbox("hostile: the deny walk cannot be made to skip the directory holding .env", () => {
  test("a directory moved beneath a path longer than PATH_MAX keeps its .env hidden in the next call", async () => {
    const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "hostile-")));
    mkdirSync(join(root, "app"));
    writeFileSync(join(root, "app", ".env"), `TOKEN=${SECRET}\n`);
    const { daemon, client, bash } = await start(root, CONFIG);
    await using _d = daemon;
    using _c = client;
    const first = await bash(`python3 -c "print(open('app/.env').read())"`);
    expect(first.text.includes(SECRET)).toBe(false);
    // Call 1: the .env is a mount point, but its directory is not: move it deep.
    const deep = `python3 -c "
import os
base = os.getcwd()
for i in range(25):
    os.mkdir('d' * 200); os.chdir('d' * 200)
os.rename(base + '/app', 'app')
print('moved', len(os.getcwd()))
"`;
    // The directory above .env is pinned (a mount point), so the move itself is refused; were it
    // not, the next call's walk refuses the path it cannot list (test/sandbox/deny-paths.test.ts).
    const moved = await bash(deep);
    expect(moved.text).not.toContain("moved");
    // Call 2: read it back step by step.
    const read = await bash(`python3 -c "
import os
for i in range(25): os.chdir('d' * 200)
print(open('app/.env').read())
"`);
    expect(read.text.includes(SECRET)).toBe(false);
  });
});

describeSandbox("hostile: the discovery record is the daemon's own file", () => {
  test("with HOME inside a root and XDG_STATE_HOME elsewhere, no command rewrites ~/.local/state/toolpool/daemon.json", async () => {
    const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "hostile-home-")));
    const { daemon, client, bash } = await start(root, CONFIG, { HOME: root });
    await using _d = daemon;
    using _c = client;
    const record = join(root, ".local", "state", "toolpool", "daemon.json");
    const before = readFileSync(record, "utf8");
    // A record naming a config of the command's making: the next daemon a trimmed-env bridge starts would read it.
    writeFileSync(join(root, "evil.json"), JSON.stringify({ sandbox: { mode: "off" } }));
    const { text } = await bash(`python3 -c "
import json
p = '${record}'
r = json.load(open(p)); r['config'] = '${join(root, "evil.json")}'; r['socket'] = '/nonexistent/s.sock'
open(p, 'w').write(json.dumps(r)); print('rewrote')
"`);
    expect(text).not.toContain("rewrote");
    expect(readFileSync(record, "utf8")).toBe(before);
  });
});

describeSandbox("hostile: a concurrent call cannot move the masked file's directory between another call's walk and its mounts", () => {
  test("the directory above .env cannot be renamed in a call; a swapping call beside a reading one reveals nothing", async () => {
    const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "hostile-race-")));
    mkdirSync(join(root, "app"));
    writeFileSync(join(root, "app", ".env"), `TOKEN=${SECRET}\n`);
    const { daemon, client, bash, socketPath } = await start(root, CONFIG);
    await using _d = daemon;
    using _c = client;
    // Deterministic half: the rename the race needs is refused (the directory is a mount point).
    const rename = await bash(`python3 -c "import os; os.rename('app', 'hide'); print('renamed')"`);
    expect(rename.text).not.toContain("renamed");
    // The race itself, from a second session: before the pins it leaked in about 1 of 6 tries.
    using other = await RawClient.open(socketPath);
    const otherSession = ((await other.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
    const swapper = other.request("toolpool/call", { sessionId: otherSession, name: "Bash", input: { command: `python3 -c "
import os, time
end = time.time() + 4
while time.time() < end:
    try:
        os.rename('app', 'hide'); os.mkdir('app'); open('app/.env', 'w').write('decoy')
        os.unlink('app/.env'); os.rmdir('app'); os.rename('hide', 'app')
    except OSError:
        time.sleep(0.001)
"` } });
    const deadline = Date.now() + 3_500;
    const revealed: string[] = [];
    for (let tries = 0; tries < 30 && Date.now() < deadline; tries++) {
      const { text } = await bash(`python3 -c "
import time
end = time.time() + 0.05; seen = set()
while time.time() < end:
    for p in ('app/.env', 'hide/.env'):
        try: seen.add(open(p).read().strip())
        except Exception: pass
print(sorted(seen))
"`);
      if (text.includes(SECRET)) revealed.push(text);
    }
    await swapper;
    expect(revealed).toEqual([]);
  });
});

describeSandbox("hostile: the daemon's own credentials are not in a command's environment", () => {
  test("OTEL_EXPORTER_OTLP_HEADERS of the daemon is not inherited by Bash", async () => {
    const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "hostile-env-")));
    const { daemon, client, bash } = await start(root, CONFIG, { OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${SECRET}`, OTEL_EXPORTER_OTLP_TRACES_HEADERS: `k=${SECRET}` });
    await using _d = daemon;
    using _c = client;
    const { text } = await bash("env; echo done");
    expect(text).toContain("done");
    expect(text.includes(SECRET)).toBe(false);
  });
});

describeSandbox("hostile: a config kept in a workspace root cannot be swapped", () => {
  test("renaming the config's directory away and writing a new config in its place fails", async () => {
    const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "hostile-cfg-")));
    mkdirSync(join(root, ".toolpool"));
    const configPath = join(root, ".toolpool", "config.json");
    const config = JSON.stringify({ workspaceRoots: [root], ...CONFIG });
    writeFileSync(configPath, config);
    const socketPath = join(tempSocketDir(), "s.sock");
    await using _d = await startBinaryDaemon(socketPath, ["--config", configPath]);
    using client = await RawClient.open(socketPath);
    const sessionId = ((await client.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
    const reply = (await client.request("toolpool/call", { sessionId, name: "Bash", input: { command: `mv .toolpool .old && mkdir .toolpool && echo '{"sandbox":{"mode":"off"}}' > .toolpool/config.json && echo swapped` } })).result as { content: { text: string }[] };
    expect(reply.content.map((block) => block.text).join("")).not.toContain("swapped");
    expect(readFileSync(configPath, "utf8")).toBe(config);
  });
});
