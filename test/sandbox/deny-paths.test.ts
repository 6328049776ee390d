import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { denyMasks, unlistable, walkStarts } from "../../src/sandbox/deny-paths.ts";
import { pathDenyRules } from "../../src/permissions/rules.ts";

function tree(): string {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "deny-")));
  for (const dir of ["app", "app/config", "secrets/deep", "gen", "node_modules/pkg"]) mkdirSync(join(root, dir), { recursive: true });
  for (const file of [".env", "app/.env", "app/config/.env.local", "secrets/deep/key", "gen/out.js", "node_modules/pkg/.env", "readme"]) writeFileSync(join(root, file), "x");
  return root;
}

const sorted = <T extends { path: string }>(masks: T[]) => masks.sort((a, b) => a.path.localeCompare(b.path));

describe("denyMasks", () => {
  test("relative and ** patterns become the existing paths under the roots; a covered directory is hidden whole", async () => {
    const root = tree();
    const rules = pathDenyRules(["Read(**/.env)", "Read(secrets/**)", "Edit(gen/**)", "Bash(rm *)"]);
    const result = await denyMasks({ rules, bases: [root], roots: [root], home: "/nonexistent-home" });
    if (!result.ok) throw new Error(result.error);
    expect(sorted(result.masks)).toEqual([
      { path: join(root, ".env"), effect: "hide", directory: false },
      { path: join(root, "app/.env"), effect: "hide", directory: false },
      { path: join(root, "gen"), effect: "read-only", directory: true },
      { path: join(root, "node_modules/pkg/.env"), effect: "hide", directory: false },
      { path: join(root, "secrets"), effect: "hide", directory: true },
    ]);
  });

  test("~/ patterns are read from the home directory, outside the roots too", async () => {
    const root = tree();
    const home = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "home-")));
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".ssh", "id_ed25519"), "k");
    writeFileSync(join(home, ".netrc"), "k");
    const rules = pathDenyRules(["Read(~/.ssh/**)", "Read(~/.netrc)", "Read(/nonexistent/*)"]);
    const result = await denyMasks({ rules, bases: [root], roots: [root], home });
    if (!result.ok) throw new Error(result.error);
    expect(sorted(result.masks)).toEqual([
      { path: join(home, ".netrc"), effect: "hide", directory: false },
      { path: join(home, ".ssh"), effect: "hide", directory: true },
    ]);
  });

  test("a symbolic link is not followed by the walk (the mount covers its target)", async () => {
    const root = tree();
    const outside = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "outside-")));
    writeFileSync(join(outside, ".env"), "x");
    symlinkSync(outside, join(root, "link"));
    const result = await denyMasks({ rules: pathDenyRules(["Read(**/.env)"]), bases: [root], roots: [root], home: "/nonexistent-home" });
    expect(result.ok && result.masks.map((mask) => mask.path).includes(join(root, "link/.env"))).toBe(false);
  });

  test("the entry bound and the time bound fail closed, naming what was hit", async () => {
    const root = tree();
    const rules = pathDenyRules(["Read(**/.env)"]);
    expect(await denyMasks({ rules, bases: [root], roots: [root], home: "/h", maxEntries: 3 })).toEqual({
      ok: false,
      error: `The sandbox could not list every path the deny rules cover (more than 3 entries under ${root}), so the command was not run: running it would let a program read what the rules deny. Narrow the workspace roots or the rules.`,
    });
    let clock = 0;
    const slow = await denyMasks({ rules, bases: [root], roots: [root], home: "/h", maxMs: 10, now: () => (clock += 100) });
    expect(slow.ok).toBe(false);
    expect(!slow.ok && slow.error).toContain("took longer than 10 ms");
  });

  test("no path rules: nothing is walked", async () => {
    expect(await denyMasks({ rules: pathDenyRules(["Bash(rm *)", "Write"]), bases: ["/"], roots: ["/"], home: "/h" })).toEqual({ ok: true, masks: [], entries: 0 });
  });
});

describe("walkStarts", () => {
  test("outermost roots, then the literal start of absolute patterns not already beneath one", () => {
    expect(walkStarts([{ glob: "/w/a/x/*" }, { glob: "/etc/app/*.key" }, { glob: "/var/secret" }, { glob: "**/.env" }, { glob: "/srv/*" }], ["/w/a/sub", "/w/a", "/w/b"])).toEqual([
      "/w/a",
      "/w/b",
      "/etc/app",
      "/var/secret",
      "/srv",
    ]);
  });
});

describe("denyMasks: a directory it cannot list", () => {
  test("a directory moved beneath a path longer than PATH_MAX refuses the call instead of leaving its .env unmasked", async () => {
    const root = tree();
    // What a sandboxed call can do: the .env is a mount point, its directory is not.
    const made = Bun.spawnSync(["python3", "-c", "import os\nfor i in range(25):\n    os.mkdir('d' * 200); os.chdir('d' * 200)\nos.rename(os.environ['ROOT'] + '/app', 'app')\n"], { cwd: root, env: { ...process.env, ROOT: root } });
    expect(made.exitCode).toBe(0);
    const result = await denyMasks({ rules: pathDenyRules(["Read(**/.env)"]), bases: [root], roots: [root], home: "/h" });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain("cannot be listed (ENAMETOOLONG)");
  });

  test("an unreadable directory of the daemon's own user refuses; another user's is skipped; a vanished one is skipped", async () => {
    const root = tree();
    const eacces = Object.assign(new Error("EACCES"), { code: "EACCES" });
    const own = (await import("node:fs")).lstatSync(join(root, "app")).uid;
    expect(unlistable(join(root, "app"), eacces, own)).toContain("belongs to the daemon's user");
    expect(unlistable(join(root, "app"), eacces, own + 1)).toBeUndefined();
    expect(unlistable(join(root, "gone"), Object.assign(new Error("ENOENT"), { code: "ENOENT" }), own)).toBeUndefined();
    expect(unlistable(join(root, "app"), Object.assign(new Error("ELOOP"), { code: "ELOOP" }), own)).toContain("(ELOOP)");
  });
});
