/** The command-line agents' real config formats: Gemini CLI (settings.json) and Codex CLI (TOML). */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configCommand } from "../../src/cli/config-command.ts";
import { hostCommand } from "../../src/cli/host-command.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "hosts");
const BINARY = "/opt/toolpool/bin/toolpool";

async function importJson(files: string[], places: { env: Record<string, string>; cwd: string; platform: NodeJS.Platform }) {
  const out: string[] = [];
  const code = await configCommand(["import", ...files], { json: true, write: false, out: (text) => out.push(text), err: () => {}, places });
  return { code, ...(JSON.parse(out[0]!) as { mcpServers: Record<string, unknown>; notes: string[]; files: { host: string }[] }) };
}

function home() {
  const dir = mkdtempSync(join(tmpdir(), "toolpool-test-agent-"));
  const lines: string[] = [];
  const places = { env: { HOME: dir }, cwd: dir, platform: "linux" as const };
  const host = (args: string[], move = false) => hostCommand(args, { json: false, move, out: (text) => lines.push(text), err: (text) => lines.push(text), places, binary: BINARY });
  return { dir, lines, places, host };
}

describe("Gemini CLI", () => {
  test("config import: httpUrl is Streamable HTTP, url is SSE, $VAR becomes ${VAR}; timeouts and tool filters are named", async () => {
    const result = await importJson([join(FIXTURES, "gemini-cli/.gemini/settings.json")], { env: { HOME: "/home/me" }, cwd: "/work/app", platform: "linux" });
    expect({ code: result.code, host: result.files[0]!.host, mcpServers: result.mcpServers }).toEqual({
      code: 0,
      host: "gemini-cli",
      mcpServers: {
        github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" } },
        pythonTools: { command: "python", args: ["-m", "my_mcp_server", "--port", "8080"], env: { DATABASE_URL: "${DB_CONNECTION_STRING}" }, cwd: "/home/me/mcp-servers/python" },
        httpServer: { type: "http", url: "http://localhost:3000/mcp", headers: { Authorization: "Bearer your-api-token" } },
        sseServer: { type: "sse", url: "https://api.example.com/sse" },
      },
    });
    expect(result.notes.map((note) => note.split(": ").slice(1).join(": "))).toEqual([
      'github: field "timeout" has no toolpool equivalent; not carried',
      'github: field "trust" has no toolpool equivalent; not carried',
      'pythonTools: field "includeTools" has no toolpool equivalent; not carried',
    ]);
  });

  test("~/.gemini/settings.json is read with no FILE; host add writes the bridge there, keeping the other settings; remove takes it out", async () => {
    const { dir, places, host } = home();
    mkdirSync(join(dir, ".gemini"));
    const file = join(dir, ".gemini", "settings.json");
    cpSync(join(FIXTURES, "gemini-cli/.gemini/settings.json"), file);
    expect(Object.keys((await importJson([], places)).mcpServers)).toEqual(["github", "pythonTools", "httpServer", "sseServer"]);
    expect(await host(["add", "gemini-cli"])).toBe(0);
    const written = JSON.parse(readFileSync(file, "utf8"));
    expect({ theme: written.theme, toolpool: written.mcpServers.toolpool }).toEqual({ theme: "GitHub", toolpool: { command: BINARY, args: ["mcp"] } });
    expect(await host(["remove", "gemini-cli"])).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(JSON.parse(readFileSync(join(FIXTURES, "gemini-cli/.gemini/settings.json"), "utf8")));
  });
});

describe("Codex CLI", () => {
  test("config import of config.toml: url is Streamable HTTP, bearer_token_env_var and http_headers become headers, enabled = false is disabled", async () => {
    const result = await importJson([join(FIXTURES, "codex/config.toml")], { env: { HOME: "/home/me" }, cwd: "/work/app", platform: "linux" });
    expect({ code: result.code, host: result.files[0]!.host, mcpServers: result.mcpServers }).toEqual({
      code: 0,
      host: "codex",
      mcpServers: {
        docs: { command: "npx", args: ["-y", "mcp-server-docs"], env: { API_KEY: "value" } },
        figma: { type: "http", url: "https://mcp.figma.com/mcp", headers: { "X-Figma-Region": "us-east-1", Authorization: "Bearer ${FIGMA_OAUTH_TOKEN}" } },
        old: { command: "old-server", disabled: true },
      },
    });
    expect(result.notes.map((note) => note.split(": ").slice(1).join(": "))).toEqual(['docs: field "startup_timeout_sec" has no toolpool equivalent; not carried']);
  });

  test("with no FILE, ~/.codex/config.toml (or $CODEX_HOME/config.toml) is read; broken TOML is a note, not a crash", async () => {
    const { dir, places } = home();
    mkdirSync(join(dir, ".codex"));
    cpSync(join(FIXTURES, "codex/config.toml"), join(dir, ".codex", "config.toml"));
    expect(Object.keys((await importJson([], places)).mcpServers)).toEqual(["docs", "figma", "old"]);
    const elsewhere = join(dir, "codex-home");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "config.toml"), "[mcp_servers.x\ncommand = 1\n");
    const broken = await importJson([], { ...places, env: { ...places.env, CODEX_HOME: elsewhere } });
    expect(broken.notes[0]).toStartWith(`skipped ${join(elsewhere, "config.toml")}: ${join(elsewhere, "config.toml")} is not valid TOML`);
  });

  test("host add appends a [mcp_servers.toolpool] table and keeps every other line and comment; idempotent; remove gives the file back as it was", async () => {
    const { dir, lines, host } = home();
    mkdirSync(join(dir, ".codex"));
    const file = join(dir, ".codex", "config.toml");
    cpSync(join(FIXTURES, "codex/config.toml"), file);
    const before = readFileSync(file, "utf8");
    expect(await host(["add", "codex"])).toBe(0);
    const after = readFileSync(file, "utf8");
    expect(after).toBe(`${before.trimEnd()}\n\n[mcp_servers.toolpool]\ncommand = "${BINARY}"\nargs = ["mcp"]\n`);
    expect(Bun.TOML.parse(after)).toMatchObject({ model: "o3", mcp_servers: { toolpool: { command: BINARY, args: ["mcp"] } }, profiles: { fast: { model: "o4-mini" } } });
    lines.length = 0;
    expect(await host(["add", "codex"])).toBe(0);
    expect(lines).toEqual([`${file} already has this "toolpool" server`]);
    expect(await host(["remove", "codex"])).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("a foreign 'toolpool' table is refused, not replaced; --move is refused for TOML with the reason", async () => {
    const { dir, lines, host } = home();
    mkdirSync(join(dir, ".codex"));
    const file = join(dir, ".codex", "config.toml");
    writeFileSync(file, '[mcp_servers.toolpool]\ncommand = "something-else"\n');
    expect(await host(["add", "codex"])).toBe(1);
    expect(await host(["remove", "codex"])).toBe(1);
    expect(readFileSync(file, "utf8")).toBe('[mcp_servers.toolpool]\ncommand = "something-else"\n');
    expect(await host(["add", "codex"], true)).toBe(1);
    expect(lines).toEqual([
      `toolpool host add: ${file} already has a server named "toolpool" that is not toolpool's bridge; rename or remove it first`,
      `toolpool host remove: the "toolpool" server in ${file} is not toolpool's bridge; leaving it`,
      `toolpool host add: --move is not supported for codex's TOML config: after config import --write, take the servers out of ${file} by hand`,
    ]);
  });
});
