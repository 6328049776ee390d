import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configCommand } from "../../src/cli/config-command.ts";
import { parseConfig } from "../../src/config/load.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "hosts");

async function importJson(files: string[], places: { env: Record<string, string>; cwd: string; platform?: NodeJS.Platform }, write = false, config?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await configCommand(["import", ...files], { json: true, write, out: (text) => out.push(text), err: (text) => err.push(text), places, ...(config && { config }) });
  const result = JSON.parse(out[0]!) as { mcpServers: Record<string, unknown>; notes: string[]; collisions: string[]; files: { file: string; host: string; servers: string[] }[]; write?: Record<string, unknown> };
  const strip = (text: string) => text.replaceAll(`${FIXTURES}/`, "");
  return { code, ...result, notes: result.notes.map(strip), collisions: result.collisions.map(strip), err };
}

const places = { env: { HOME: "/home/me" }, cwd: "/work/app" };

describe("toolpool config import: each host's real format", () => {
  test("Claude Desktop: command servers, env carried, a name with a space renamed", async () => {
    const result = await importJson([join(FIXTURES, "claude-desktop/claude_desktop_config.json")], places);
    expect({ code: result.code, mcpServers: result.mcpServers, notes: result.notes }).toEqual({
      code: 0,
      mcpServers: {
        filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"] },
        github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_example" } },
        "brave-search": { command: "npx", args: ["-y", "@modelcontextprotocol/server-brave-search"], env: { BRAVE_API_KEY: "BSA-example" } },
      },
      notes: ["claude-desktop/claude_desktop_config.json: brave search: renamed brave-search (server names use [a-zA-Z0-9_-])"],
    });
  });

  test("Claude Code .mcp.json: http with headers, stdio with ${VAR:-default}, sse", async () => {
    const result = await importJson([join(FIXTURES, "claude-code/.mcp.json")], places);
    expect({ mcpServers: result.mcpServers, notes: result.notes }).toEqual({
      mcpServers: {
        sentry: { type: "http", url: "https://mcp.sentry.dev/mcp", headers: { Authorization: "Bearer ${SENTRY_TOKEN}" } },
        db: { command: "npx", args: ["-y", "@bytebase/dbhub", "--dsn", "${DATABASE_URL:-postgres://localhost/dev}"] },
        "legacy-events": { type: "sse", url: "https://events.example.com/sse" },
      },
      notes: [],
    });
  });

  test("Claude Code ~/.claude.json: the top-level servers and this project's, other projects counted", async () => {
    const result = await importJson([join(FIXTURES, "claude-code/.claude.json")], { ...places, cwd: "/work/app/src" });
    // The project's local servers first: Claude Code prefers them to the user's on a shared name.
    expect(Object.keys(result.mcpServers)).toEqual(["playwright", "memory"]);
    expect({ mcpServers: result.mcpServers, notes: result.notes }).toEqual({
      mcpServers: {
        playwright: { command: "npx", args: ["@playwright/mcp@latest"] },
        memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
      },
      notes: ["claude-code/.claude.json: 1 other project in ~/.claude.json has servers of its own (run this from that directory to import them)"],
    });
  });

  test("Cursor: url without type (sse by path, else http), ${env:X}, the project's ${workspaceFolder}", async () => {
    const result = await importJson([join(FIXTURES, "cursor/.cursor/mcp.json")], places);
    expect({ mcpServers: result.mcpServers, notes: result.notes }).toEqual({
      mcpServers: {
        linear: { type: "sse", url: "https://mcp.linear.app/sse" },
        notion: { type: "http", url: "https://mcp.notion.com/mcp", headers: { Authorization: "Bearer ${NOTION_TOKEN}" } },
        github: {
          command: "docker",
          args: ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" },
        },
        "local-notes": { command: "node", args: [`${FIXTURES}/cursor/tools/notes-server.js`] },
      },
      notes: [
        'cursor/.cursor/mcp.json: linear: no "type" given; imported as SSE (the URL ends in /sse)',
        'cursor/.cursor/mcp.json: notion: no "type" given; imported as Streamable HTTP',
      ],
    });
  });

  test("VS Code (JSONC): servers + inputs, ${input:id} becomes ${VAR} with a note, unconvertible imported disabled", async () => {
    const result = await importJson([join(FIXTURES, "vscode/.vscode/mcp.json")], places);
    expect({ mcpServers: result.mcpServers, notes: result.notes }).toEqual({
      mcpServers: {
        perplexity: { command: "npx", args: ["-y", "server-perplexity-ask"], env: { PERPLEXITY_API_KEY: "${PERPLEXITY_KEY}" } },
        fetch: { command: "uvx", args: ["mcp-server-fetch"] },
        github: { type: "http", url: "https://api.githubcopilot.com/mcp/", headers: { Authorization: "Bearer ${GITHUB_TOKEN}" } },
        "settings-bound": { command: "tool", args: ["--profile", "${config:my.profile}"], disabled: true },
      },
      notes: [
        'vscode/.vscode/mcp.json: perplexity: field "envFile" has no toolpool equivalent; not carried',
        'vscode/.vscode/mcp.json: perplexity: env.PERPLEXITY_API_KEY: VS Code input "perplexity-key" (Perplexity API Key) is now ${PERPLEXITY_KEY}: set PERPLEXITY_KEY in the environment the daemon runs in',
        "vscode/.vscode/mcp.json: settings-bound: args.1: ${config:my.profile} cannot be converted (toolpool expands only ${VAR} and ${VAR:-default})",
        "vscode/.vscode/mcp.json: settings-bound: imported disabled until the references above are fixed",
      ],
    });
  });

  test("Windsurf: serverUrl, disabled carried, toolpool's own bridge never imported", async () => {
    const result = await importJson([join(FIXTURES, "windsurf/mcp_config.json")], places);
    expect({ mcpServers: result.mcpServers, notes: result.notes }).toEqual({
      mcpServers: {
        figma: { type: "http", url: "https://mcp.figma.com/mcp", headers: { "X-Figma-Token": "${FIGMA_TOKEN}" } },
        git: { command: "uvx", args: ["mcp-server-git"], disabled: true },
      },
      notes: [
        'windsurf/mcp_config.json: figma: no "type" given; imported as Streamable HTTP',
        'windsurf/mcp_config.json: git: field "disabledTools" has no toolpool equivalent; not carried',
        "windsurf/mcp_config.json: toolpool: this is toolpool's own bridge (toolpool mcp); not imported",
      ],
    });
  });

  test("every imported set is a valid toolpool config", async () => {
    const all = await importJson(
      ["claude-desktop/claude_desktop_config.json", "claude-code/.mcp.json", "cursor/.cursor/mcp.json", "vscode/.vscode/mcp.json", "windsurf/mcp_config.json"].map((file) => join(FIXTURES, file)),
      places,
    );
    expect(() => parseConfig({ mcpServers: all.mcpServers }, "imported")).not.toThrow();
    // github differs between Claude Desktop, Cursor and VS Code: all kept, the later ones renamed and reported.
    expect(all.collisions).toEqual([
      "github: cursor/.cursor/mcp.json has a different server of that name than claude-desktop/claude_desktop_config.json; imported as github-cursor",
      "github: vscode/.vscode/mcp.json has a different server of that name than claude-desktop/claude_desktop_config.json; imported as github-vscode",
    ]);
  });

  test("bad input: invalid JSON names line and column; a missing file is an error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolpool-test-import-"));
    writeFileSync(join(dir, "mcp.json"), '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}');
    const err: string[] = [];
    const options = { json: false, write: false, out: () => {}, err: (text: string) => err.push(text), places };
    expect(await configCommand(["import", join(dir, "mcp.json")], options)).toBe(1);
    expect(err).toEqual([`toolpool config import: ${join(dir, "mcp.json")} is not valid JSON: line 4, column 5: expected , or } after the value of "a", found "\\""`]);
    expect(await configCommand(["import", join(dir, "missing.json")], options)).toBe(1);
    expect(err[1]).toStartWith(`toolpool config import: cannot read ${join(dir, "missing.json")}: ENOENT`);
  });
});

describe("config import with no FILE reads each host's default places", () => {
  for (const platform of ["linux", "darwin"] as const) {
    test(`on ${platform}`, async () => {
      const home = mkdtempSync(join(tmpdir(), "toolpool-test-home-"));
      const project = join(home, "project");
      const appData = platform === "darwin" ? join(home, "Library", "Application Support") : join(home, ".config");
      const put = (from: string, to: string) => {
        mkdirSync(join(to, ".."), { recursive: true });
        cpSync(join(FIXTURES, from), to);
      };
      put("claude-desktop/claude_desktop_config.json", join(appData, "Claude", "claude_desktop_config.json"));
      put("claude-code/.mcp.json", join(project, ".mcp.json"));
      put("cursor/.cursor/mcp.json", join(home, ".cursor", "mcp.json"));
      put("vscode/.vscode/mcp.json", join(appData, "Code", "User", "mcp.json"));
      put("windsurf/mcp_config.json", join(home, ".codeium", "windsurf", "mcp_config.json"));
      const result = await importJson([], { env: { HOME: home }, cwd: project, platform });
      expect(result.files.map((file) => [file.file.replace(home, "~"), file.host, file.servers.length])).toEqual([
        [platform === "darwin" ? "~/Library/Application Support/Claude/claude_desktop_config.json" : "~/.config/Claude/claude_desktop_config.json", "claude-desktop", 3],
        ["~/project/.mcp.json", "claude-code", 3],
        ["~/.cursor/mcp.json", "cursor", 4],
        [platform === "darwin" ? "~/Library/Application Support/Code/User/mcp.json" : "~/.config/Code/User/mcp.json", "vscode", 4],
        ["~/.codeium/windsurf/mcp_config.json", "windsurf", 2],
      ]);
      // In the user-level Cursor file, ${workspaceFolder} has no single value: it is named, not guessed.
      expect(result.mcpServers["local-notes"]).toEqual({ command: "node", args: ["${WORKSPACE_FOLDER}/tools/notes-server.js"] });
    });
  }

  test("a broken file found by looking is skipped with a note; the other hosts are still imported", async () => {
    const home = mkdtempSync(join(tmpdir(), "toolpool-test-home-"));
    writeFileSync(join(home, ".claude.json"), '{"mcpServers": {');
    mkdirSync(join(home, ".cursor"));
    cpSync(join(FIXTURES, "cursor/.cursor/mcp.json"), join(home, ".cursor", "mcp.json"));
    const result = await importJson([], { env: { HOME: home }, cwd: home, platform: "linux" });
    expect({ code: result.code, servers: Object.keys(result.mcpServers).length }).toEqual({ code: 0, servers: 4 });
    expect(result.notes[0]).toBe(`skipped ${join(home, ".claude.json")}: ${join(home, ".claude.json")} is not valid JSON: line 1, column 17: expected a quoted key or }, found the end of the text`);
  });

  test("nothing found: says where it looked, exit 1", async () => {
    const home = mkdtempSync(join(tmpdir(), "toolpool-test-home-"));
    const result = await importJson([], { env: { HOME: home }, cwd: home, platform: "linux" });
    expect({ code: result.code, mcpServers: result.mcpServers }).toEqual({ code: 1, mcpServers: {} });
    expect(result.err[0]).toStartWith(`toolpool config import: no MCP host config found; looked in:\n  ${home}/.config/Claude/claude_desktop_config.json`);
  });
});

describe("config import --write", () => {
  test("with no FILE, a project's own file (this directory's .mcp.json) is shown but not merged unless named", async () => {
    const home = mkdtempSync(join(tmpdir(), "toolpool-test-home-"));
    const project = join(home, "cloned-repo");
    mkdirSync(project);
    cpSync(join(FIXTURES, "claude-code/.mcp.json"), join(project, ".mcp.json"));
    cpSync(join(FIXTURES, "windsurf/mcp_config.json"), join(home, "ws.json"));
    mkdirSync(join(home, ".codeium", "windsurf"), { recursive: true });
    cpSync(join(FIXTURES, "windsurf/mcp_config.json"), join(home, ".codeium", "windsurf", "mcp_config.json"));
    const placesHere = { env: { HOME: home }, cwd: project, platform: "linux" as const };
    const shown = await importJson([], placesHere);
    expect(Object.keys(shown.mcpServers)).toEqual(["sentry", "db", "legacy-events", "figma", "git"]);
    const configPath = join(home, "config.json");
    const written = await importJson([], placesHere, true, configPath);
    expect(written.write?.added).toEqual(["figma", "git"]);
    expect(written.notes).toContain(`${join(project, ".mcp.json")}: a project's file is not merged unless named: toolpool config import ${join(project, ".mcp.json")} --write`);
    const named = await importJson([join(project, ".mcp.json")], placesHere, true, configPath);
    expect(named.write?.added).toEqual(["sentry", "db", "legacy-events"]);
  });

  test("merges into the config: backup first, an existing different server kept and the import renamed, a second run changes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolpool-test-write-"));
    const configPath = join(dir, "config.json");
    const original = { toolSearch: "auto", mcpServers: { github: { command: "my-github-server" } } };
    writeFileSync(configPath, JSON.stringify(original), { mode: 0o600 });
    const first = await importJson([join(FIXTURES, "claude-desktop/claude_desktop_config.json")], places, true, configPath);
    expect(first.write).toMatchObject({ added: ["filesystem", "brave-search"], unchanged: [], renamed: [{ from: "github", to: "github-claude-desktop" }] });
    const backup = first.write!.backup as string;
    expect(JSON.parse(readFileSync(backup, "utf8"))).toEqual(original);
    const written = JSON.parse(readFileSync(configPath, "utf8"));
    expect(written.toolSearch).toBe("auto");
    expect(Object.keys(written.mcpServers)).toEqual(["github", "filesystem", "github-claude-desktop", "brave-search"]);
    expect(written.mcpServers.github).toEqual({ command: "my-github-server" });
    expect({ config: statSync(configPath).mode & 0o777, backup: statSync(backup).mode & 0o777 }).toEqual({ config: 0o600, backup: 0o600 });
    expect(() => parseConfig(written, configPath)).not.toThrow();
    const second = await importJson([join(FIXTURES, "claude-desktop/claude_desktop_config.json")], places, true, configPath);
    expect(second.write).toEqual({ configPath, added: [], unchanged: ["filesystem", "github-claude-desktop", "brave-search"], renamed: [] });
    expect(readdirSync(dir).filter((name) => name.includes(".bak-")).length).toBe(1);
  });

  test("with a daemon running, --write names its pid for the reload", async () => {
    await using daemon = await startTestDaemon({ builtins: [] });
    const dir = mkdtempSync(join(tmpdir(), "toolpool-test-write-"));
    const out: string[] = [];
    const placesWithDaemon = { env: { HOME: "/home/me", TOOLPOOL_SOCKET: daemon.socketPath }, cwd: "/work/app" };
    const code = await configCommand(["import", join(FIXTURES, "claude-code/.mcp.json")], { json: false, write: true, config: join(dir, "config.json"), out: (text) => out.push(text), err: () => {}, places: placesWithDaemon });
    expect(code).toBe(0);
    expect(out.at(-1)).toBe(`the running daemon (pid ${process.pid}) reads it on SIGHUP: kill -HUP ${process.pid} (or at its next start)`);
  });

  test("a config that is not valid JSON is not written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolpool-test-write-"));
    const configPath = join(dir, "config.json");
    writeFileSync(configPath, "{ broken");
    const err: string[] = [];
    const code = await configCommand(["import", join(FIXTURES, "claude-code/.mcp.json")], { json: false, write: true, config: configPath, out: () => {}, err: (text) => err.push(text), places });
    expect({ code, text: readFileSync(configPath, "utf8") }).toEqual({ code: 5, text: "{ broken" });
    expect(err.at(-1)).toStartWith(`toolpool config import: not written: config ${configPath} is not valid JSON: line 1, column 3`);
  });

  test("a Claude Desktop file under ~/.config while XDG_CONFIG_HOME points elsewhere is named, not skipped in silence (and nothing read: exit 1)", async () => {
    const home = mkdtempSync(join(tmpdir(), "toolpool-test-home-"));
    const xdg = join(home, "xdg");
    mkdirSync(join(home, ".config", "Claude"), { recursive: true });
    mkdirSync(xdg);
    const stray = join(home, ".config", "Claude", "claude_desktop_config.json");
    cpSync(join(FIXTURES, "claude-desktop/claude_desktop_config.json"), stray);
    const result = await importJson([], { env: { HOME: home, XDG_CONFIG_HOME: xdg }, cwd: home, platform: "linux" });
    expect({ code: result.code, notes: result.notes }).toEqual({
      code: 1,
      notes: [`not read: ${stray} (claude-desktop, under ~/.config while XDG_CONFIG_HOME is ${xdg}); to import it: toolpool config import ${stray}`],
    });
    expect(result.err[0]).toContain(`looked in:\n  ${xdg}/Claude/claude_desktop_config.json`);
    // Named, it is read.
    const named = await importJson([stray], { env: { HOME: home, XDG_CONFIG_HOME: xdg }, cwd: home, platform: "linux" });
    expect({ code: named.code, servers: Object.keys(named.mcpServers).length > 0 }).toEqual({ code: 0, servers: true });
  });

  test("files read but no server in them: exit 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolpool-test-empty-"));
    writeFileSync(join(dir, "claude_desktop_config.json"), JSON.stringify({ mcpServers: {} }));
    const result = await importJson([join(dir, "claude_desktop_config.json")], { env: { HOME: dir }, cwd: dir, platform: "linux" });
    expect({ code: result.code, mcpServers: result.mcpServers }).toEqual({ code: 1, mcpServers: {} });
  });
});

describe("toolpool config import: hostile files", () => {
  test("100,000-deep JSON: a clear error naming the depth, no crash", async () => {
    const dir = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT ?? tmpdir(), "deep-"));
    const file = join(dir, "deep.json");
    const depth = 100_000;
    writeFileSync(file, `{"mcpServers":{"a":{"command":"x","args":${"[".repeat(depth)}${"]".repeat(depth)}}}}`);
    const err: string[] = [];
    const code = await configCommand(["import", file], { json: true, write: false, out: () => {}, err: (text) => err.push(text), places });
    expect({ code, err }).toEqual({ code: 1, err: [`toolpool config import: ${file} holds JSON nested deeper than 64 levels; a host's MCP config never does, so it was not read`] });
  });

  test("__proto__, constructor, hasOwnProperty, toString are names like any other: no collision; __proto__ refused by name; the written config loads with them", async () => {
    const dir = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT ?? tmpdir(), "proto-"));
    const file = join(dir, ".mcp.json");
    writeFileSync(file, '{"mcpServers":{"__proto__":{"command":"p"},"constructor":{"command":"c"},"hasOwnProperty":{"command":"h"},"toString":{"command":"t"}}}');
    const config = join(dir, "config.json");
    const result = await importJson([file], places, true, config);
    expect({ mcpServers: result.mcpServers, collisions: result.collisions, notes: result.notes.map((note) => note.replace(`${file}: `, "")) }).toEqual({
      mcpServers: { constructor: { command: "c" }, hasOwnProperty: { command: "h" }, toString: { command: "t" } },
      collisions: [],
      notes: ['__proto__: not imported: "__proto__" cannot be a server name (JavaScript reserves it); rename it in that file, or add it to your config under another name'],
    });
    const written = JSON.parse(readFileSync(config, "utf8"));
    expect(Object.keys(parseConfig(written, config).mcpServers)).toEqual(["constructor", "hasOwnProperty", "toString"]);
    // Imported again: the same servers are found (by own keys), not taken for collisions.
    const again = await importJson([file], places, true, config);
    expect(again.collisions).toEqual([]);
  });

  test("a config naming a __proto__ server is refused with that name, not silently emptied", () => {
    expect(() => parseConfig(JSON.parse('{"mcpServers":{"__proto__":{"command":"p"}}}'), "/c.json")).toThrow(
      'config /c.json is invalid: mcpServers: "__proto__" cannot be a server name (JavaScript reserves it); rename that server',
    );
  });
});
