// test-plan: one tier — pinned roots, trust and hygiene are the same in every tier; the cron quota needs AGENT_TRIGGERS, which the last tier (pro) has.
/**
 * Issue 23's breaks 4, 5 and 7, against the compiled binary over its real socket: a workspace root
 * swapped for a symlink moves no file tool; a script a trusted project runs, rewritten by Write,
 * does not start; a malformed Host is a 400; what servers and files say prints escaped.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { binaryPath, runBinary, startBinaryDaemon } from "../helpers/binary.ts";

setDefaultTimeout(120_000);

const FIXTURE_SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "fixture-server.ts");

function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, prefix)));
}

type CallReply = { result?: { content: { type: string; text?: string }[]; isError: boolean }; error?: { message: string } };

async function call(client: RawClient, sessionId: string, name: string, input: Record<string, unknown>) {
  const reply = (await client.request("toolpool/call", { sessionId, name, input })) as CallReply;
  return { isError: reply.result?.isError ?? true, text: reply.result?.content.map((block) => block.text ?? "").join("\n") ?? reply.error?.message ?? "" };
}

async function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

describe("roots pinned by descriptor (compiled binary)", () => {
  test("a root renamed away and replaced by a symlink to another directory: Read, Grep, Glob, Write, Edit and NotebookEdit refuse, naming the move; nothing outside is read or written", async () => {
    const parent = tempDir("pinned-root-");
    const root = join(parent, "project");
    const outside = tempDir("pinned-outside-");
    mkdirSync(root);
    writeFileSync(join(root, "a.txt"), "inside\n");
    writeFileSync(join(outside, "a.txt"), "OUTSIDE SECRET\n");
    writeFileSync(join(outside, "n.ipynb"), JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 }));
    const socketPath = join(tempSocketDir(), "pinned.sock");
    await using _daemon = await startBinaryDaemon(socketPath);
    using client = await RawClient.open(socketPath);
    const opened = (await client.request("toolpool/session", { workspaceRoots: [root] })).result as { sessionId: string };
    const sessionId = opened.sessionId;
    expect(await call(client, sessionId, "Read", { file_path: join(root, "a.txt") })).toEqual({ isError: false, text: "     1\tinside" });

    // The swap: the directory the session opened goes elsewhere; its name now leads outside.
    renameSync(root, join(parent, "project.old"));
    symlinkSync(outside, root);

    const attempts = {
      read: await call(client, sessionId, "Read", { file_path: join(root, "a.txt") }),
      grep: await call(client, sessionId, "Grep", { pattern: "SECRET", path: root, output_mode: "content" }),
      grepDefault: await call(client, sessionId, "Grep", { pattern: "SECRET", output_mode: "content" }),
      glob: await call(client, sessionId, "Glob", { pattern: "*.txt", path: root }),
      write: await call(client, sessionId, "Write", { file_path: join(root, "planted.txt"), content: "x" }),
      edit: await call(client, sessionId, "Edit", { file_path: join(root, "a.txt"), old_string: "OUTSIDE", new_string: "EDITED" }),
      notebook: await call(client, sessionId, "NotebookEdit", { notebook_path: join(root, "n.ipynb"), new_source: "x", cell_type: "code", edit_mode: "insert" }),
    };
    for (const [tool, outcome] of Object.entries(attempts)) {
      expect({ tool, isError: outcome.isError, secret: outcome.text.includes("SECRET") }).toEqual({ tool, isError: true, secret: false });
      expect({ tool, text: outcome.text }).toMatchObject({ tool, text: expect.stringContaining(`workspace root ${root}`) });
      expect({ tool, text: outcome.text }).toMatchObject({ tool, text: expect.stringContaining(`now at ${join(parent, "project.old")}`) });
    }
    expect({ outside: readdirSync(outside).sort(), secret: readFileSync(join(outside, "a.txt"), "utf8") }).toEqual({ outside: ["a.txt", "n.ipynb"], secret: "OUTSIDE SECRET\n" });
    expect(readFileSync(join(parent, "project.old", "a.txt"), "utf8")).toBe("inside\n");
  });

  test("the root itself raced against a symlink to another directory while Read, Grep and Write run: nothing outside is read or written", async () => {
    const parent = tempDir("raced-root-");
    const root = join(parent, "project");
    const outside = tempDir("raced-outside-");
    mkdirSync(root);
    writeFileSync(join(root, "f.txt"), "inside\n");
    writeFileSync(join(outside, "f.txt"), "OUTSIDE SECRET\n");
    const socketPath = join(tempSocketDir(), "raced.sock");
    await using _daemon = await startBinaryDaemon(socketPath);
    using client = await RawClient.open(socketPath);
    const sessionId = ((await client.request("toolpool/session", { workspaceRoots: [root] })).result as { sessionId: string }).sessionId;
    const swapper = Bun.spawn([process.execPath, join(import.meta.dir, "..", "fixtures", "races", "swap-directory.ts"), root, outside], { stdout: "pipe", stderr: "ignore" });
    try {
      const reader = swapper.stdout.getReader();
      await reader.read();
      reader.releaseLock();
      let escaped = 0;
      for (let attempt = 0; attempt < 600; attempt++) {
        const read = await call(client, sessionId, "Read", { file_path: join(root, "f.txt") });
        const grep = await call(client, sessionId, "Grep", { pattern: "SECRET|inside", path: root, output_mode: "content" });
        if (read.text.includes("SECRET") || grep.text.includes("SECRET")) escaped++;
        await call(client, sessionId, "Write", { file_path: join(root, `w-${attempt}.txt`), content: "x" });
      }
      expect({ escaped, writtenOutside: readdirSync(outside).filter((name) => name !== "f.txt") }).toEqual({ escaped: 0, writtenOutside: [] });
    } finally {
      swapper.kill("SIGKILL");
      await swapper.exited;
    }
    // The pinned directory back at its name (wherever the swapper stopped): the session works again.
    if (existsSync(`${root}.real`)) {
      if (lstatSync(root, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(root);
      renameSync(`${root}.real`, root);
    }
    expect(await call(client, sessionId, "Read", { file_path: join(root, "f.txt") })).toEqual({ isError: false, text: "     1\tinside" });
  });
});

describe("trust pins what runs (compiled binary)", () => {
  test("Write rewrites the trusted project's ./server.sh: the server does not start, the reason names the file; trust shows env; approving again starts it", async () => {
    const root = tempDir("pinned-project-");
    const script = join(root, "server.sh");
    const marker = join(root, "ran-rewritten");
    const scriptText = (extra: string) => `#!/bin/sh\n${extra}exec "${process.execPath}" "${FIXTURE_SERVER}"\n`;
    writeFileSync(script, scriptText(""), { mode: 0o755 });
    writeFileSync(join(root, ".toolpool.json"), JSON.stringify({ mcpServers: { fx: { command: "./server.sh", startup: "lazy", env: { LD_PRELOAD: "/tmp/x.so" }, timeoutMs: 10_000 } } }));
    const socketPath = join(tempSocketDir(), "trust.sock");
    await using _daemon = await startBinaryDaemon(socketPath);
    using client = await RawClient.open(socketPath);
    const sessionId = ((await client.request("toolpool/session", { workspaceRoots: [root] })).result as { sessionId: string }).sessionId;
    const trusted = await runBinary(["trust", root, "--socket", socketPath]);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('    env LD_PRELOAD="/tmp/x.so"');
    expect(trusted.stdout).toContain(`    ${script}  sha256 `);
    const servers = async () => ((await client.request("toolpool/servers")).result as { servers: { name: string; state: string; reason?: string }[] }).servers;
    const echo = await waitFor(async () => {
      const tools = ((await client.request("toolpool/tools")).result as { tools: { name: string }[] }).tools;
      return tools.find((tool) => tool.name.startsWith("mcp__fx-") && tool.name.endsWith("__echo"))?.name;
    }, "the trusted server's tools");

    expect((await call(client, sessionId, "Write", { file_path: script, content: scriptText(`touch "${marker}"\n`) })).isError).toBe(false);
    const refused = await call(client, sessionId, echo, { text: "x" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(`${script} changed since it was approved`);
    expect(existsSync(marker)).toBe(false);
    expect((await servers()).find((server) => server.name.startsWith("fx-"))).toMatchObject({ state: "untrusted", reason: expect.stringContaining(`${script} changed since it was approved`) });

    expect((await runBinary(["trust", root, "--socket", socketPath])).code).toBe(0);
    await waitFor(async () => (await servers()).find((server) => server.name.startsWith("fx-") && server.state !== "untrusted"), "approved again");
    expect((await call(client, sessionId, echo, { text: "x" })).isError).toBe(false);
    expect(existsSync(marker)).toBe(true);
  });
});

describe("quotas per client (compiled binary)", () => {
  test("one connection's sessions take at most 200 cron jobs; another connection still schedules", async () => {
    const socketPath = join(tempSocketDir(), "cron-quota.sock");
    await using _daemon = await startBinaryDaemon(socketPath, [], { XDG_STATE_HOME: tempDir("cron-state-") });
    using greedy = await RawClient.open(socketPath);
    const create = async (client: RawClient, sessionId: string) => call(client, sessionId, "CronCreate", { cron: "0 0 1 1 *", prompt: "p", recurring: true });
    let made = 0;
    let refusal = "";
    for (let session = 0; session < 6 && !refusal; session++) {
      const sessionId = ((await greedy.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
      for (let job = 0; job < 50 && !refusal; job++) {
        const outcome = await create(greedy, sessionId);
        if (outcome.isError) refusal = outcome.text;
        else made++;
      }
    }
    expect({ made, refusal }).toEqual({ made: 200, refusal: expect.stringContaining("already hold 200 cron jobs, the per-client limit") });
    using polite = await RawClient.open(socketPath);
    const politeSession = ((await polite.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
    expect((await create(polite, politeSession)).isError).toBe(false);
  });

  test("one connection naming 64 junk project roots holds 32 of them; another connection's project stays listed", async () => {
    const base = tempDir("junk-roots-");
    const project = (name: string) => {
      const root = join(base, name);
      mkdirSync(root);
      writeFileSync(join(root, ".toolpool.json"), JSON.stringify({ mcpServers: { s: { command: "true" } } }));
      return root;
    };
    const socketPath = join(tempSocketDir(), "roots-quota.sock");
    await using _daemon = await startBinaryDaemon(socketPath);
    using owner = await RawClient.open(socketPath);
    const mine = project("mine");
    await owner.request("toolpool/session", { workspaceRoots: [mine] });
    using junk = await RawClient.open(socketPath);
    for (let index = 0; index < 64; index++) await junk.request("toolpool/session", { workspaceRoots: [project(`junk-${index}`)] });
    const listed = ((await owner.request("toolpool/projects")).result as { projects: { root: string }[] }).projects.map((entry) => entry.root);
    expect({ total: listed.length, mine: listed.includes(mine), oldestJunk: listed.includes(join(base, "junk-0")), newestJunk: listed.includes(join(base, "junk-63")) }).toEqual({
      total: 33,
      mine: true,
      oldestJunk: false,
      newestJunk: true,
    });
  });
});

describe("output hygiene and bounds (compiled binary)", () => {
  test("a malformed Host on the HTTP bridge is a 400 naming it, not a 500", async () => {
    const socketPath = join(tempSocketDir(), "host.sock");
    await using _daemon = await startBinaryDaemon(socketPath);
    const bridge = Bun.spawn([binaryPath(), "mcp", "--http", "127.0.0.1:0", "--socket", socketPath], { env: process.env, stdout: "pipe", stderr: "pipe" });
    try {
      const reader = bridge.stdout.getReader();
      let printed = "";
      while (!/http:\/\/127\.0\.0\.1:(\d+)\/mcp\/\S+/.test(printed)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`bridge exited: ${printed}`);
        printed += new TextDecoder().decode(value);
      }
      const [, port, path] = /http:\/\/127\.0\.0\.1:(\d+)(\/mcp\/\S+)/.exec(printed) as RegExpExecArray;
      const statusFor = async (host: string) => {
        const answer = await new Promise<string>((resolve, reject) => {
          let text = "";
          void Bun.connect({
            hostname: "127.0.0.1",
            port: Number(port),
            socket: {
              open: (socket) => void socket.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`),
              data: (_socket, data) => void (text += new TextDecoder().decode(data)),
              close: () => resolve(text),
              error: (_socket, error) => reject(error),
            },
          });
        });
        return { status: answer.split("\r\n")[0], body: answer.split("\r\n\r\n")[1] ?? "" };
      };
      for (const host of ["localhost/x", "localhost:99999", "[::1"]) {
        const answer = await statusFor(host);
        expect({ host, status: answer.status, named: answer.body.includes("malformed Host header") }).toEqual({ host, status: "HTTP/1.1 400 Bad Request", named: true });
      }
      expect((await statusFor("evil.example")).status).toBe("HTTP/1.1 403 Forbidden");
    } finally {
      bridge.kill("SIGKILL");
      await bridge.exited;
    }
  });

  test("trust, servers and config import print a hostile file's escape sequences and bidi overrides escaped", async () => {
    const root = tempDir("escapes-");
    const hostile = "\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202etxt.exe";
    writeFileSync(join(root, ".toolpool.json"), JSON.stringify({ mcpServers: { fx: { command: `./run${hostile}.sh`, args: [hostile], env: { NOTE: hostile } } } }));
    const socketPath = join(tempSocketDir(), "escapes.sock");
    await using _daemon = await startBinaryDaemon(socketPath);
    const trusted = await runBinary(["trust", root, "--socket", socketPath]);
    const imported = await runBinary(["config", "import", join(root, ".toolpool.json"), "--json"]);
    using client = await RawClient.open(socketPath);
    await client.request("toolpool/session", { workspaceRoots: [root] });
    const servers = await waitFor(async () => {
      const listed = await runBinary(["servers", "--socket", socketPath]);
      return listed.stdout.includes("fx-") && listed;
    }, "the project server listed");
    for (const [what, output] of Object.entries({ trust: trusted.stdout + trusted.stderr, import: imported.stdout + imported.stderr, servers: servers.stdout + servers.stderr })) {
      expect({ what, raw: /[\u001b\u0007\u009b\u202e]/.test(output) }).toEqual({ what, raw: false });
    }
    expect(trusted.stdout).toContain("\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202etxt.exe");
    expect(JSON.parse(imported.stdout).mcpServers.fx.args).toEqual([hostile]);
  });

  test("config import of 100,000-deep JSON: a clear error, no crash", async () => {
    const dir = tempDir("deep-");
    const depth = 100_000;
    writeFileSync(join(dir, "deep.json"), `{"mcpServers":{"a":{"command":"x","args":${"[".repeat(depth)}${"]".repeat(depth)}}}}`);
    const result = await runBinary(["config", "import", join(dir, "deep.json")]);
    expect(result).toEqual({ code: 1, stdout: "", stderr: `toolpool config import: ${join(dir, "deep.json")} holds JSON nested deeper than 64 levels; a host's MCP config never does, so it was not read\n` });
  });
});
