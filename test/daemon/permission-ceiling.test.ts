/**
 * The operator's rules are a ceiling, over the real socket: whatever a session sends in
 * `toolpool/session`, the config's deny rules and allow list keep applying to its calls.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinTools } from "../../src/builtin/list.ts";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { startTestDaemon, tempSocketDir } from "../helpers/daemon-harness.ts";

const SECRET = "API_KEY=hunter2-secret";

function workspace(): string {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "ceiling-")));
  writeFileSync(join(root, ".env"), `${SECRET}\n`);
  writeFileSync(join(root, "victim.txt"), "keep me\n");
  return root;
}

function notebook(source: string) {
  return { cells: [{ cell_type: "code", id: "a1", metadata: {}, source: [source], outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 };
}

async function open(client: RawClient, params: Record<string, unknown>) {
  return client.request("toolpool/session", params);
}

async function call(client: RawClient, sessionId: string, name: string, input: Record<string, unknown>) {
  const reply = await client.request("toolpool/call", { sessionId, name, input });
  const result = reply.result as { content: { text?: string }[]; isError: boolean };
  return { text: result.content.map((block) => block.text ?? "").join(""), isError: result.isError };
}

describe("the config's permissions are a ceiling for every session", () => {
  test("hostile session permissions keep the operator's deny rules and allow list", async () => {
    const root = workspace();
    await using harness = await startTestDaemon({
      config: { workspaceRoots: [root], permissions: { mode: "default", allow: ["Bash(echo *)", "Bash(cat *)"], deny: ["Bash(rm *)", "Read(**/.env)"] } },
    });
    using client = await RawClient.open(harness.socketPath);
    const hostile = [{ mode: "default" }, { deny: [] }, { mode: "default", allow: ["Bash(*)", "Read"], deny: [] }];
    for (const permissions of hostile) {
      const opened = (await open(client, { permissions })).result as { sessionId: string; settings: { permissions: unknown } };
      expect(opened.settings.permissions).toMatchObject({ mode: "default", allow: ["Bash(echo *)", "Bash(cat *)"], deny: ["Bash(rm *)", "Read(**/.env)"] });
      const id = opened.sessionId;
      expect(await call(client, id, "Bash", { command: "rm -f victim.txt" })).toEqual({ text: 'Permission denied for Bash: denied by the rule "Bash(rm *)".', isError: true });
      expect(await call(client, id, "Read", { file_path: ".env" })).toMatchObject({ isError: true });
      expect((await call(client, id, "Bash", { command: "touch made.txt" })).text).toContain("no allow rule of the daemon's config covers it");
    }
    expect(existsSync(join(root, "victim.txt"))).toBe(true);
    expect(existsSync(join(root, "made.txt"))).toBe(false);
  });

  test("bypass is refused unless the config allows it; a re-open cannot shed the operator's rules", async () => {
    const root = workspace();
    await using harness = await startTestDaemon({ config: { workspaceRoots: [root], permissions: { deny: ["Bash(rm *)"] } } });
    using client = await RawClient.open(harness.socketPath);
    const bypass = await open(client, { permissions: { mode: "bypass" } });
    expect(bypass.error).toMatchObject({ code: -32602 });
    expect((bypass.error as { message: string }).message).toBe(
      'Invalid params: field "permissions.mode": a session may not choose "bypass": the daemon\'s config does not set permissions.allowSessionBypass',
    );
    const opened = (await open(client, { permissions: { deny: ["Bash(curl *)"] } })).result as { sessionId: string };
    const reopened = (await open(client, { sessionId: opened.sessionId, permissions: { mode: "default", deny: [] } })).result as { resumed: boolean; settings: { permissions: unknown } };
    // A re-open (by id, from any connection) keeps the operator's rules and the session's own narrowing.
    expect(reopened).toMatchObject({ resumed: true, settings: { permissions: { mode: "default", allow: [], deny: ["Bash(rm *)", "Bash(curl *)"] } } });
    expect((await call(client, opened.sessionId, "Bash", { command: "rm -f victim.txt" })).isError).toBe(true);
    expect((await open(client, { sessionId: opened.sessionId, permissions: { mode: "bypass" } })).error).toMatchObject({ code: -32602 });
    expect(existsSync(join(root, "victim.txt"))).toBe(true);
  });

  test("a session's rules are checked at open: one that can never match, and more than 1,000, are refused by name", async () => {
    const root = workspace();
    await using harness = await startTestDaemon({ config: { workspaceRoots: [root] } });
    using client = await RawClient.open(harness.socketPath);
    expect(((await open(client, { permissions: { deny: ["Bash(:*)"] } })).error as { message: string }).message).toBe(
      'Invalid params for toolpool/session:\n  - field "permissions.deny.0": Permission rule "Bash(:*)" can never match anything: it names no program',
    );
    const tooMany = Array.from({ length: 1001 }, (_, index) => `Bash(tool${index}:*)`);
    expect(((await open(client, { permissions: { deny: tooMany } })).error as { message: string }).message).toBe(
      'Invalid params for toolpool/session:\n  - field "permissions.deny": at most 1000 deny rules per session',
    );
    const opened = (await open(client, { permissions: { deny: ["Bash(rm:*)"] } })).result as { sessionId: string };
    expect((await call(client, opened.sessionId, "Bash", { command: "rm -f victim.txt" })).isError).toBe(true);
    expect(existsSync(join(root, "victim.txt"))).toBe(true);
  });

  test("a session that narrowed itself stays narrowed when another connection re-opens it", async () => {
    const root = workspace();
    await using harness = await startTestDaemon({ config: { workspaceRoots: [root] } });
    using owner = await RawClient.open(harness.socketPath);
    const { sessionId } = (await open(owner, { permissions: { mode: "readOnly", deny: ["Bash"] } })).result as { sessionId: string };
    using other = await RawClient.open(harness.socketPath);
    const widened = await open(other, { sessionId, permissions: { mode: "default", deny: [] } });
    expect((widened.error as { message: string }).message).toBe(
      'Invalid params: field "permissions.mode": "default" is wider than this session\'s mode "readOnly"; a re-opened session may only narrow it',
    );
    const kept = (await open(other, { sessionId, permissions: { deny: [] } })).result as { settings: { permissions: { mode: string; deny: string[] } } };
    expect(kept.settings.permissions).toMatchObject({ mode: "readOnly", deny: ["Bash"] });
    expect((await call(other, sessionId, "Bash", { command: "touch made.txt" })).isError).toBe(true);
    expect(existsSync(join(root, "made.txt"))).toBe(false);
  });

  test("allowSessionBypass lets a session choose bypass; the operator's deny rules still apply", async () => {
    const root = workspace();
    await using harness = await startTestDaemon({
      config: { workspaceRoots: [root], permissions: { allow: ["Bash(echo *)"], deny: ["Bash(rm *)"], allowSessionBypass: true } },
    });
    using client = await RawClient.open(harness.socketPath);
    const opened = (await open(client, { permissions: { mode: "bypass", deny: [] } })).result as { sessionId: string };
    expect(await call(client, opened.sessionId, "Bash", { command: "touch made.txt" })).toEqual({ text: "(no output)\nExit code: 0", isError: false });
    expect((await call(client, opened.sessionId, "Bash", { command: "rm -f victim.txt" })).isError).toBe(true);
    expect(existsSync(join(root, "victim.txt"))).toBe(true);
  });
});

describe("a config reload", () => {
  test("binds open sessions to the new rules at once", async () => {
    const root = workspace();
    const dir = tempSocketDir();
    const configPath = join(dir, "config.json");
    const config = (permissions: Record<string, unknown>) => ({ workspaceRoots: [root], permissions });
    writeFileSync(configPath, JSON.stringify(config({ allowSessionBypass: true })));
    const daemon = new Daemon({
      socketPath: join(dir, "r.sock"),
      config: parseConfig(config({ allowSessionBypass: true }), configPath),
      configSource: { path: configPath, explicit: true },
      builtins: builtinTools(),
      logger: silentLogger,
    });
    await daemon.start();
    try {
      using client = await RawClient.open(join(dir, "r.sock"));
      const id = ((await open(client, { permissions: { mode: "bypass", deny: ["Bash(curl *)"] } })).result as { sessionId: string }).sessionId;
      writeFileSync(configPath, JSON.stringify(config({ deny: ["Bash(rm *)"] })));
      await daemon.reload();
      expect(await call(client, id, "Bash", { command: "rm -f victim.txt" })).toEqual({ text: 'Permission denied for Bash: denied by the rule "Bash(rm *)".', isError: true });
      expect((await call(client, id, "Bash", { command: "curl -s http://127.0.0.1:9" })).isError).toBe(true);
      const resumed = (await open(client, { sessionId: id })).result as { settings: { permissions: unknown } };
      expect(resumed.settings.permissions).toEqual({ mode: "default", allow: [], deny: ["Bash(rm *)", "Bash(curl *)"], sessionDeny: ["Bash(curl *)"] });
      expect(existsSync(join(root, "victim.txt"))).toBe(true);
    } finally {
      await daemon.stop("test finished");
    }
  });
});

describe("Read(...) rules govern every tool that reads the path", () => {
  test("Read, Grep, Glob, Bash cat and Edit's snippet do not show a denied file", async () => {
    const root = workspace();
    writeFileSync(join(root, "notes.txt"), "API_KEY is documented elsewhere\n");
    await using harness = await startTestDaemon({ config: { workspaceRoots: [root], permissions: { deny: ["Read(**/.env)", "Read(**/*.secret.ipynb)"] } } });
    using client = await RawClient.open(harness.socketPath);
    const id = ((await open(client, {})).result as { sessionId: string }).sessionId;
    const denied = (tool: string, path: string) => ({ text: `Permission denied for ${tool}: denied by the rule "Read(**/.env)" (the call reads ${path}).`, isError: true });
    expect(await call(client, id, "Read", { file_path: ".env" })).toEqual({ text: `Permission denied for Read: denied by the rule "Read(**/.env)".`, isError: true });
    expect(await call(client, id, "Grep", { pattern: "API_KEY", output_mode: "content" })).toEqual({ text: `${join(root, "notes.txt")}:1:API_KEY is documented elsewhere`, isError: false });
    expect(await call(client, id, "Grep", { pattern: "hunter2", path: ".env" })).toEqual(denied("Grep", join(root, ".env")));
    expect(await call(client, id, "Grep", { pattern: "hunter2", glob: ".env", "-i": true })).toEqual({ text: "No matches found.", isError: false });
    expect((await call(client, id, "Glob", { pattern: "**/.env*" })).text).toBe(`No files match **/.env* in ${root}.`);
    for (const command of ["cat .env", "cat ./.env", "head -c 100 $PWD/.env", "cat < .env", "cp .env x; cat x", "grep -r hunter2 .", "rg hunter2", "cat .e*", "cat ~/../../$PWD/.env"]) {
      const result = await call(client, id, "Bash", { command });
      expect({ command, isError: result.isError, leaked: result.text.includes(SECRET) }).toEqual({ command, isError: true, leaked: false });
    }
    symlinkSync(join(root, ".env"), join(root, "innocent.txt"));
    for (const [tool, input] of [["Read", { file_path: "innocent.txt" }], ["Bash", { command: "cat innocent.txt" }]] as const) {
      const result = await call(client, id, tool, input);
      expect({ tool, isError: result.isError, leaked: result.text.includes(SECRET) }).toEqual({ tool, isError: true, leaked: false });
    }
    writeFileSync(join(root, "keys.secret.ipynb"), JSON.stringify(notebook(SECRET)));
    const cell = await call(client, id, "NotebookEdit", { notebook_path: "keys.secret.ipynb", cell_number: 0, new_source: "x" });
    expect(cell).toEqual({ text: `Permission denied for NotebookEdit: denied by the rule "Read(**/*.secret.ipynb)" (the call reads ${join(root, "keys.secret.ipynb")}).`, isError: true });
    const edit = await call(client, id, "Edit", { file_path: ".env", old_string: "API_KEY", new_string: "KEY" });
    expect(edit).toEqual({ text: `Permission denied for Edit: denied by the rule "Read(**/.env)" (the call reads ${join(root, ".env")}).`, isError: true });
  });

  test("Edit(...) rules govern Write, Edit and Bash writes; a symlink does not hide the target", async () => {
    const root = workspace();
    await using harness = await startTestDaemon({ config: { workspaceRoots: [root], permissions: { deny: ["Edit(**/.env)"] } } });
    using client = await RawClient.open(harness.socketPath);
    const id = ((await open(client, {})).result as { sessionId: string }).sessionId;
    expect((await call(client, id, "Write", { file_path: ".env", content: "x" })).isError).toBe(true);
    for (const command of ["echo x > .env", "echo x >> ./.env", "cp victim.txt .env", "sed -i s/API/X/ .env", "tee .env < victim.txt", "ln -s .env link; echo x > link"]) {
      expect({ command, isError: (await call(client, id, "Bash", { command })).isError }).toEqual({ command, isError: true });
    }
    expect((await call(client, id, "Bash", { command: "cat .env" })).text).toContain("hunter2");
    expect(await Bun.file(join(root, ".env")).text()).toBe(`${SECRET}\n`);
  });

  test("the config's workspace roots are a ceiling too: a session names roots inside them, never outside", async () => {
    const root = workspace();
    const outside = workspace();
    const inner = join(root, "inner");
    mkdirSync(inner);
    // Same prefix, not inside: /tmp/ceiling-abc is not a parent of /tmp/ceiling-abcx.
    const sibling = `${root}x`;
    mkdirSync(sibling);
    // A symlink inside the root that points out of it is outside: roots compare as real paths.
    symlinkSync(outside, join(root, "escape"));
    await using harness = await startTestDaemon({ config: { workspaceRoots: [root] } });
    using client = await RawClient.open(harness.socketPath);
    for (const roots of [[outside], ["/"], [join(root, "escape")], [root, outside], [sibling]]) {
      const reply = await open(client, { workspaceRoots: roots });
      expect(reply.error, JSON.stringify(roots)).toBeDefined();
      expect((reply.error as { message: string }).message).toMatch(/workspaceRoots\.\d.*is outside the workspace roots/);
    }
    const narrowed = (await open(client, { workspaceRoots: [inner] })).result as { sessionId: string; settings: { workspaceRoots: string[] } };
    expect(narrowed.settings.workspaceRoots).toEqual([inner]);
    expect(await call(client, narrowed.sessionId, "Read", { file_path: join(outside, "victim.txt") })).toMatchObject({ isError: true });
    const same = (await open(client, { workspaceRoots: [root] })).result as { settings: { workspaceRoots: string[] } };
    expect(same.settings.workspaceRoots).toEqual([root]);
  });

  test("a relative deny rule of the config stays where the operator meant it, whatever cwd a session picks", async () => {
    const root = workspace();
    mkdirSync(join(root, "secrets"));
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "secrets", "key"), "TOPSECRET\n");
    await using harness = await startTestDaemon({ config: { workspaceRoots: [root], permissions: { deny: ["Read(secrets/*)"] } } });
    using client = await RawClient.open(harness.socketPath);
    const moved = (await open(client, { cwd: join(root, "sub") })).result as { sessionId: string };
    const id = moved.sessionId;
    expect(await call(client, id, "Read", { file_path: join(root, "secrets", "key") })).toMatchObject({ isError: true });
    expect(await call(client, id, "Read", { file_path: "../secrets/key" })).toMatchObject({ isError: true });
    expect((await call(client, id, "Bash", { command: "cat ../secrets/key" })).text).not.toContain("TOPSECRET");
    expect((await call(client, id, "Grep", { pattern: "TOPSECRET", path: root, output_mode: "content" })).text).not.toContain("TOPSECRET");
    // A session that names a sub-root as its only root is held to the rule too.
    const narrowed = (await open(client, { workspaceRoots: [join(root, "sub")] })).result as { sessionId: string };
    expect((await call(client, narrowed.sessionId, "Bash", { command: "cat ../secrets/key" })).text).not.toContain("TOPSECRET");
    // And the working directory may not leave the roots at all.
    const outside = (await open(client, { cwd: "/" })).error as { message: string };
    expect(outside.message).toMatch(/cwd.*is outside the session's workspace roots/);
  });

  test("a session's own roots only narrow on a re-open: another connection holding the id cannot widen them", async () => {
    const root = workspace();
    mkdirSync(join(root, "sub"));
    await using harness = await startTestDaemon({ config: {} });
    using owner = await RawClient.open(harness.socketPath);
    using other = await RawClient.open(harness.socketPath);
    const { sessionId } = (await open(owner, { workspaceRoots: [join(root, "sub")] })).result as { sessionId: string };
    expect(await call(owner, sessionId, "Read", { file_path: join(root, "victim.txt") })).toMatchObject({ isError: true });
    for (const roots of [[root], ["/"], [join(root, "sub"), root]]) {
      const widened = await open(other, { sessionId, workspaceRoots: roots });
      expect((widened.error as { message: string }).message).toContain("a re-opened session can only narrow them");
    }
    expect(await call(owner, sessionId, "Read", { file_path: join(root, "victim.txt") })).toMatchObject({ isError: true });
    mkdirSync(join(root, "sub", "deeper"));
    const narrowed = (await open(other, { sessionId, workspaceRoots: [join(root, "sub", "deeper")] })).result as { settings: { workspaceRoots: string[] } };
    expect(narrowed.settings.workspaceRoots).toEqual([join(root, "sub", "deeper")]);
  });

  test("a relative allow rule of the config is read from the config's roots, not from a cwd the session picks", async () => {
    const root = workspace();
    for (const dir of ["docs", "src", "src/docs"]) mkdirSync(join(root, dir));
    await using harness = await startTestDaemon({ config: { workspaceRoots: [root], permissions: { allow: ["Write(docs/*)"] } } });
    using client = await RawClient.open(harness.socketPath);
    const { sessionId } = (await open(client, { cwd: join(root, "src") })).result as { sessionId: string };
    const inSrc = await call(client, sessionId, "Write", { file_path: join(root, "src", "docs", "pwn.ts"), content: "x" });
    expect(inSrc.isError).toBe(true);
    expect(inSrc.text).toContain("no allow rule of the daemon's config covers it");
    expect(existsSync(join(root, "src", "docs", "pwn.ts"))).toBe(false);
    expect(await call(client, sessionId, "Write", { file_path: join(root, "docs", "ok.md"), content: "x" })).toMatchObject({ isError: false });
  });
});
