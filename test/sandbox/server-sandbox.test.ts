import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { programLocation, serverBwrapArgv } from "../../src/sandbox/server-sandbox.ts";
import { projectSandboxDefault, toSpec, type StdioServerSpec } from "../../src/mcp/server-spec.ts";
import { configSchema } from "../../src/config/schema.ts";

describe("serverBwrapArgv", () => {
  test("nothing of the file system but what is listed; private /tmp; no network; the daemon's files hidden", () => {
    expect(
      serverBwrapArgv(
        { bwrapPath: "/usr/bin/bwrap", readable: ["/usr", "/srv/node_modules"], writable: ["/data"], hidden: [{ path: "/data/state", directory: true }], network: "none", cwd: "/data" },
        "/srv/node_modules/x/index.js",
        ["--flag", "/data"],
      ),
    ).toEqual([
      "/usr/bin/bwrap", "--unshare-all", "--die-with-parent", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
      "--ro-bind", "/usr", "/usr", "--ro-bind", "/srv/node_modules", "/srv/node_modules", "--bind", "/data", "/data",
      "--tmpfs", "/data/state", "--remount-ro", "/data/state",
      "--chdir", "/data", "--", "/srv/node_modules/x/index.js", "--flag", "/data",
    ]);
  });
});

describe("programLocation", () => {
  test("a program inside node_modules shows the whole tree; elsewhere its directory", () => {
    const base = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "prog-")));
    mkdirSync(join(base, "node_modules", "pkg", "dist"), { recursive: true });
    writeFileSync(join(base, "node_modules", "pkg", "dist", "index.js"), "");
    writeFileSync(join(base, "tool.sh"), "");
    expect(programLocation("node_modules/pkg/dist/index.js", base, undefined)).toEqual({ program: join(base, "node_modules/pkg/dist/index.js"), dir: join(base, "node_modules") });
    expect(programLocation("./tool.sh", base, undefined)).toEqual({ program: join(base, "tool.sh"), dir: base });
    expect(programLocation("no-such-program-here", base, "/nonexistent")).toBeUndefined();
  });
});

describe("which sandbox a server gets", () => {
  const config = (value: unknown) => configSchema.parse(value);
  const server = (entry: Record<string, unknown>) => configSchema.parse({ mcpServers: { s: { command: "x", ...entry } } }).mcpServers.s!;

  test("the entry's own, else the config's default; an entry of the daemon's config may opt out", () => {
    const fallback = projectSandboxDefault(config({ sandbox: { servers: { writable: ["data"] } } }), "/etc/tp/config.json", { HOME: "/home/u" });
    expect(fallback).toEqual({ readable: [], writable: ["/etc/tp/data"], network: "none" });
    const spec = (entry: Record<string, unknown>) => (toSpec("s", server(entry), "c", "/cfg", { HOME: "/home/u" }, { ...(fallback && { fallback }), ownAllowed: true }) as StdioServerSpec).sandbox;
    expect(spec({})).toEqual({ readable: [], writable: ["/etc/tp/data"], network: "none" });
    expect(spec({ sandbox: { readable: ["~/docs"], network: "all" } })).toEqual({ readable: ["/home/u/docs"], writable: [], network: "all" });
    expect(spec({ sandbox: { enabled: false } })).toBeUndefined();
  });

  test("a project file's entry cannot switch the operator's default off, nor replace it", () => {
    const fallback = { readable: [], writable: ["/w"], network: "none" as const };
    const project = (entry: Record<string, unknown>, withDefault: boolean) =>
      (toSpec("s", server(entry), "p", "/proj", {}, { ...(withDefault && { fallback }), ownAllowed: false }) as StdioServerSpec).sandbox;
    expect(project({ sandbox: { enabled: false } }, true)).toEqual(fallback);
    expect(project({ sandbox: { writable: ["/"], network: "all" } }, true)).toEqual(fallback);
    // Without an operator default, a project may confine its own server.
    expect(project({ sandbox: { writable: ["data"] } }, false)).toEqual({ readable: [], writable: ["/proj/data"], network: "none" });
    expect(project({ sandbox: { enabled: false } }, false)).toBeUndefined();
  });
});
