import { describe, expect, test } from "bun:test";
import { bwrapArgv } from "../../src/sandbox/bwrap-argv.ts";

const plan = {
  bwrapPath: "/usr/bin/bwrap",
  writable: ["/w/a", "/w/b"],
  tmpDir: "/t/call-1",
  masks: [
    { path: "/w/a/secrets", effect: "hide", directory: true },
    { path: "/w/a/.env", effect: "hide", directory: false },
    { path: "/w/a/gen", effect: "read-only", directory: true },
  ],
  hidden: [
    { path: "/state/toolpool", directory: true },
    { path: "/run/x.sock", directory: false },
  ],
  network: "none",
  cwd: "/w/a",
} as const;

describe("bwrapArgv", () => {
  test("the system read-only, roots and temp writable, then the masks, then the daemon's own files; no network", () => {
    expect(bwrapArgv(plan, ["bash", "-c", "echo hi"])).toEqual([
      "/usr/bin/bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent",
      "--bind", "/w/a", "/w/a", "--bind", "/w/b", "/w/b", "--bind", "/t/call-1", "/t/call-1",
      // Read-only (write-denied) first, so a hidden path beneath one is still hidden.
      "--ro-bind", "/w/a/gen", "/w/a/gen",
      "--ro-bind", "/dev/null", "/w/a/.env",
      "--tmpfs", "/w/a/secrets", "--remount-ro", "/w/a/secrets",
      "--tmpfs", "/state/toolpool", "--remount-ro", "/state/toolpool",
      "--ro-bind", "/dev/null", "/run/x.sock",
      "--chdir", "/w/a", "--", "bash", "-c", "echo hi",
    ]);
  });

  test("network all keeps the network namespace; nothing else changes", () => {
    const argv = bwrapArgv({ ...plan, network: "all" }, ["true"]);
    expect(argv.slice(0, 11)).toEqual(["/usr/bin/bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--share-net", "--die-with-parent"]);
    expect(argv.length).toBe(bwrapArgv(plan, ["true"]).length + 1);
  });

  test("a command word that looks like an option stays after --", () => {
    const argv = bwrapArgv({ ...plan, masks: [], hidden: [] }, ["--bind", "/", "/"]);
    expect(argv.slice(argv.indexOf("--"))).toEqual(["--", "--bind", "/", "/"]);
  });

  test("every directory between a writable root and a mask is pinned (bound onto itself) before the masks, read-only inside a read-only mask", () => {
    const argv = bwrapArgv(
      {
        ...plan,
        hidden: [],
        masks: [
          { path: "/w/a/app/cfg/.env", effect: "hide", directory: false },
          { path: "/w/a/gen", effect: "read-only", directory: true },
          { path: "/w/a/gen/x/.env", effect: "hide", directory: false },
          { path: "/elsewhere/deep/.netrc", effect: "hide", directory: false },
        ],
      },
      ["true"],
    );
    expect(argv.slice(argv.indexOf("/t/call-1") + 2, argv.indexOf("--chdir"))).toEqual([
      "--ro-bind", "/w/a/gen", "/w/a/gen",
      "--bind", "/w/a/app", "/w/a/app",
      "--ro-bind", "/w/a/gen/x", "/w/a/gen/x",
      "--bind", "/w/a/app/cfg", "/w/a/app/cfg",
      "--ro-bind", "/dev/null", "/w/a/gen/x/.env",
      "--ro-bind", "/dev/null", "/w/a/app/cfg/.env",
      "--ro-bind", "/dev/null", "/elsewhere/deep/.netrc",
    ]);
  });

  test("the directory of a daemon file kept in a root is pinned too (its config could not be swapped by renaming it)", () => {
    const argv = bwrapArgv({ ...plan, masks: [], hidden: [{ path: "/w/a/.toolpool/config.json", directory: false }] }, ["true"]);
    expect(argv.slice(argv.indexOf("/t/call-1") + 2, argv.indexOf("--chdir"))).toEqual([
      "--bind", "/w/a/.toolpool", "/w/a/.toolpool",
      "--ro-bind", "/dev/null", "/w/a/.toolpool/config.json",
    ]);
  });
});
