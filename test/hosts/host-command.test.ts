import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configCommand } from "../../src/cli/config-command.ts";
import { hostCommand } from "../../src/cli/host-command.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "hosts");
const BINARY = "/opt/toolpool/bin/toolpool";

function setup() {
  const home = mkdtempSync(join(tmpdir(), "toolpool-test-host-"));
  const places = { env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config") }, cwd: home, platform: "linux" as const };
  const lines: string[] = [];
  const run = (args: string[], extra: { move?: boolean; json?: boolean } = {}) =>
    hostCommand(args, { json: extra.json ?? false, move: extra.move ?? false, out: (text) => lines.push(text), err: (text) => lines.push(text), places, binary: BINARY });
  return { home, places, lines, run };
}

describe("toolpool host add / remove", () => {
  test("host add claude-desktop writes a valid config with a backup; keeps the host's other keys; idempotent", async () => {
    const { home, lines, run } = setup();
    const file = join(home, ".config", "Claude", "claude_desktop_config.json");
    mkdirSync(join(file, ".."), { recursive: true });
    cpSync(join(FIXTURES, "claude-desktop/claude_desktop_config.json"), file);
    const before = readFileSync(file, "utf8");
    expect(await run(["add", "claude-desktop"])).toBe(0);
    const written = JSON.parse(readFileSync(file, "utf8"));
    expect(written.globalShortcut).toBe("Ctrl+Space");
    expect(written.mcpServers.toolpool).toEqual({ command: BINARY, args: ["mcp"] });
    expect(Object.keys(written.mcpServers)).toEqual(["filesystem", "github", "brave search", "toolpool"]);
    const backup = lines[0]!.match(/the old file is in (.*)\)$/)![1]!;
    expect(readFileSync(backup, "utf8")).toBe(before);
    expect(lines).toEqual([`added the "toolpool" server to ${file} (the old file is in ${backup})`, "restart claude-desktop to pick up the change"]);
    lines.length = 0;
    expect(await run(["add", "claude-desktop"])).toBe(0);
    expect(lines).toEqual([`${file} already has this "toolpool" server`]);
  });

  test("each host gets the entry in its own layout (VS Code: servers + type; Claude Code: ~/.claude.json top level)", async () => {
    const { home, lines, run } = setup();
    for (const host of ["claude-code", "cursor", "vscode", "windsurf"]) expect(await run(["add", host])).toBe(0);
    const read = (path: string) => JSON.parse(readFileSync(join(home, path), "utf8"));
    expect(read(".claude.json")).toEqual({ mcpServers: { toolpool: { type: "stdio", command: BINARY, args: ["mcp"], env: {} } } });
    expect(read(".cursor/mcp.json")).toEqual({ mcpServers: { toolpool: { command: BINARY, args: ["mcp"] } } });
    expect(read(".config/Code/User/mcp.json")).toEqual({ servers: { toolpool: { type: "stdio", command: BINARY, args: ["mcp"] } } });
    // A JSONC file keeps its servers and inputs; the note says its comments live on in the backup.
    cpSync(join(FIXTURES, "vscode/.vscode/mcp.json"), join(home, ".config/Code/User/mcp.json"));
    lines.length = 0;
    expect(await run(["add", "vscode"])).toBe(0);
    const vscode = read(".config/Code/User/mcp.json");
    expect({ servers: Object.keys(vscode.servers), inputs: vscode.inputs.length }).toEqual({ servers: ["perplexity", "fetch", "github", "settings-bound", "toolpool"], inputs: 1 });
    expect(lines[1]).toBe(`  note: ${join(home, ".config/Code/User/mcp.json")} had comments or trailing commas; the rewritten file has none (the backup keeps them)`);
    expect(read(".codeium/windsurf/mcp_config.json")).toEqual({ mcpServers: { toolpool: { command: BINARY, args: ["mcp"] } } });
  });

  test("--move takes out only the servers toolpool's config holds; the rest stay and are named", async () => {
    const { home, places, lines, run } = setup();
    const file = join(home, ".cursor", "mcp.json");
    mkdirSync(join(file, ".."), { recursive: true });
    cpSync(join(FIXTURES, "cursor/.cursor/mcp.json"), file);
    // Import two of the four into toolpool's config first.
    const partial = join(home, "partial.json");
    const all = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(partial, JSON.stringify({ mcpServers: { linear: all.mcpServers.linear, github: all.mcpServers.github } }));
    expect(await configCommand(["import", partial], { json: false, write: true, out: () => {}, err: () => {}, places })).toBe(0);
    expect(await run(["add", "cursor"], { move: true })).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).mcpServers)).toEqual(["notion", "local-notes", "toolpool"]);
    expect(lines.slice(1, 4)).toEqual([
      "  moved into toolpool (taken out of cursor): linear, github",
      "  left in cursor (not in toolpool's config yet): notion, local-notes",
      `  to move them too: toolpool config import ${file} --write && toolpool host add cursor --move`,
    ]);
  });

  test("claude-code --move also empties this directory's project servers in ~/.claude.json; other projects untouched", async () => {
    const { home, lines } = setup();
    const file = join(home, ".claude.json");
    cpSync(join(FIXTURES, "claude-code/.claude.json"), file);
    const places = { env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config") }, cwd: "/work/app", platform: "linux" as const };
    expect(await configCommand(["import", file], { json: false, write: true, out: () => {}, err: () => {}, places })).toBe(0);
    const code = await hostCommand(["add", "claude-code"], { json: false, move: true, out: (text) => lines.push(text), err: (text) => lines.push(text), places, binary: BINARY });
    expect(code).toBe(0);
    const written = JSON.parse(readFileSync(file, "utf8"));
    expect({
      top: Object.keys(written.mcpServers),
      app: Object.keys(written.projects["/work/app"].mcpServers),
      other: Object.keys(written.projects["/work/other"].mcpServers),
      keptKeys: [written.numStartups, written.projects["/work/app"].allowedTools],
    }).toEqual({ top: ["toolpool"], app: [], other: ["secret-other"], keptKeys: [42, []] });
    expect(lines[1]).toBe("  moved into toolpool (taken out of claude-code): memory, playwright (project /work/app)");
  });

  test("host remove takes out only toolpool's bridge; a foreign 'toolpool' entry is refused, not replaced", async () => {
    const { home, lines, run } = setup();
    const file = join(home, ".codeium", "windsurf", "mcp_config.json");
    mkdirSync(join(file, ".."), { recursive: true });
    cpSync(join(FIXTURES, "windsurf/mcp_config.json"), file);
    expect(await run(["remove", "windsurf"])).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).mcpServers)).toEqual(["figma", "git"]);
    expect(await run(["remove", "windsurf"])).toBe(0);
    expect(lines.at(-1)).toBe(`${file} has no "toolpool" server; nothing to remove`);
    writeFileSync(file, JSON.stringify({ mcpServers: { toolpool: { command: "someone-else" } } }));
    expect(await run(["add", "windsurf"])).toBe(1);
    expect(lines.at(-1)).toBe(`toolpool host add: ${file} already has a server named "toolpool" that is not toolpool's bridge; rename or remove it first`);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ mcpServers: { toolpool: { command: "someone-else" } } });
  });

  test("usage errors: unknown host, missing name", async () => {
    const { run } = setup();
    await expect(run(["add", "emacs"])).rejects.toThrow('unknown host "emacs"; hosts: claude-desktop, claude-code, cursor, vscode, windsurf');
    await expect(run(["add"])).rejects.toThrow("usage: toolpool host add NAME");
  });

  test("host add --move then host remove gives the host its servers back (from what was moved, not backups); the record is gone after", async () => {
    const { home, places, lines, run } = setup();
    const file = join(home, ".config", "Claude", "claude_desktop_config.json");
    mkdirSync(join(file, ".."), { recursive: true });
    cpSync(join(FIXTURES, "claude-desktop/claude_desktop_config.json"), file);
    const before = JSON.parse(readFileSync(file, "utf8"));
    expect(await configCommand(["import", file], { json: false, write: true, out: () => {}, err: () => {}, places })).toBe(0);
    expect(await run(["add", "claude-desktop"], { move: true })).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).mcpServers)).toEqual(["toolpool"]);
    // Backups are not what restores them: delete them all.
    for (const name of readdirSync(join(file, ".."))) if (name.includes(".bak-")) rmSync(join(file, "..", name));
    lines.length = 0;
    expect(await run(["remove", "claude-desktop"])).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(before);
    expect(lines[1]).toBe("  put back (an earlier --move had taken them out): filesystem, github, brave search");
    expect(existsSync(join(home, ".local", "state", "toolpool", "moved-servers.json"))).toBe(false);
  });

  test("claude-code: project servers a --move took are put back in their project; a name the host uses again is left as it is", async () => {
    const { home, lines } = setup();
    const file = join(home, ".claude.json");
    cpSync(join(FIXTURES, "claude-code/.claude.json"), file);
    const before = JSON.parse(readFileSync(file, "utf8"));
    const places = { env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config") }, cwd: "/work/app", platform: "linux" as const };
    const host = (args: string[], move = false) => hostCommand(args, { json: false, move, out: (text) => lines.push(text), err: (text) => lines.push(text), places, binary: BINARY });
    expect(await configCommand(["import", file], { json: false, write: true, out: () => {}, err: () => {}, places })).toBe(0);
    expect(await host(["add", "claude-code"], true)).toBe(0);
    const moved = JSON.parse(readFileSync(file, "utf8"));
    expect(statSync(join(home, ".local", "state", "toolpool", "moved-servers.json")).mode & 0o777).toBe(0o600);
    // The user adds a new "memory" server by hand meanwhile: it is kept, the old one is not forced back.
    moved.mcpServers.memory = { command: "my-memory" };
    writeFileSync(file, JSON.stringify(moved));
    lines.length = 0;
    expect(await host(["remove", "claude-code"])).toBe(0);
    const after = JSON.parse(readFileSync(file, "utf8"));
    expect(after.projects).toEqual(before.projects);
    expect(after.mcpServers.memory).toEqual({ command: "my-memory" });
    expect(lines).toContain("  note: memory was not put back: the host has a server of that name again");
  });
});
