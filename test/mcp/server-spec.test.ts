import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, parseConfig } from "../../src/config/load.ts";
import { expandText } from "../../src/mcp/expand-env.ts";
import { resolveServerSpecs } from "../../src/mcp/server-spec.ts";
import { tempDir } from "./helpers.ts";

const site = { server: "github", field: "url" };

describe("${VAR} expansion", () => {
  test("set variables, defaults, empty defaults and text around them", () => {
    const env = { HOST: "example.com", EMPTY: "" };
    expect(expandText("https://${HOST}/mcp", env, site)).toBe("https://example.com/mcp");
    expect(expandText("${PORT:-8080}", env, site)).toBe("8080");
    expect(expandText("${EMPTY:-fallback}", env, site)).toBe("fallback");
    expect(expandText("[${EMPTY}]", env, site)).toBe("[]");
    expect(expandText("${MISSING:-}", env, site)).toBe("");
    expect(expandText("no references $HOST", env, site)).toBe("no references $HOST");
  });

  test("an unset variable without a default names the server, the field and the variable", () => {
    expect(() => expandText("Bearer ${GITHUB_TOKEN}", {}, { server: "github", field: "headers.Authorization" })).toThrow(
      new ConfigError(
        'MCP server "github": field "headers.Authorization" uses ${GITHUB_TOKEN}, but GITHUB_TOKEN is not set and has no default (write ${GITHUB_TOKEN:-default} to give one)',
      ),
    );
  });
});

describe("resolveServerSpecs", () => {
  test("expands command, args, env, cwd, url and headers, and fills defaults (no timeoutMs: the runtime flag decides)", async () => {
    const config = parseConfig(
      {
        mcpServers: {
          local: { command: "${BIN_DIR}/server", args: ["--root", "${ROOT:-/srv}"], env: { TOKEN: "${TOKEN}" }, cwd: "work", startup: "lazy", alwaysLoad: ["search"] },
          remote: { type: "http", url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" }, timeoutMs: 5000 },
        },
      },
      "test",
    );
    const specs = await resolveServerSpecs(config, { env: { BIN_DIR: "/opt/bin", TOKEN: "t0k", HOST: "mcp.example" }, configPath: "/etc/toolpool/config.json" });
    expect(specs).toEqual([
      {
        name: "local",
        transport: "stdio",
        command: "/opt/bin/server",
        args: ["--root", "/srv"],
        env: { TOKEN: "t0k" },
        cwd: "/etc/toolpool/work",
        startup: "lazy",
        disabled: false,
        alwaysLoad: ["search"],
        origin: "/etc/toolpool/config.json",
      },
      {
        name: "remote",
        transport: "http",
        url: "https://mcp.example/mcp",
        headers: { Authorization: "Bearer t0k" },
        startup: "eager",
        timeoutMs: 5000,
        disabled: false,
        alwaysLoad: [],
        origin: "/etc/toolpool/config.json",
      },
    ]);
  });

  test("each expanded field names itself in the error", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ command: "${NOPE}" }, 'field "command" uses ${NOPE}'],
      [{ command: "x", args: ["a", "${NOPE}"] }, 'field "args.1" uses ${NOPE}'],
      [{ command: "x", env: { KEY: "${NOPE}" } }, 'field "env.KEY" uses ${NOPE}'],
      [{ type: "sse", url: "http://${NOPE}/sse" }, 'field "url" uses ${NOPE}'],
      [{ type: "http", url: "http://h/mcp", headers: { "X-Key": "${NOPE}" } }, 'field "headers.X-Key" uses ${NOPE}'],
    ];
    for (const [server, message] of cases) {
      const config = parseConfig({ mcpServers: { s1: server } }, "test");
      await expect(resolveServerSpecs(config, { env: {} })).rejects.toThrow(`MCP server "s1": ${message}`);
    }
  });

  test("a disabled server's unset variables do not block the daemon", async () => {
    const config = parseConfig({ mcpServers: { off: { command: "${NOPE}", disabled: true } } }, "test");
    const [spec] = await resolveServerSpecs(config, { env: {} });
    expect(spec).toMatchObject({ name: "off", disabled: true, command: "${NOPE}" });
  });

  test("two servers whose names differ only by case are refused, naming both and where each came from", async () => {
    // Attack: servers "forge" and "FORGE" answered as one in ToolSearch: mcp__FORGE listed and selected forge's tools too.
    const dir = tempDir("case-");
    const included = join(dir, "x.mcp.json");
    writeFileSync(included, JSON.stringify({ mcpServers: { Forge: { command: "b" } } }));
    const config = parseConfig({ mcpServers: { forge: { command: "a" } }, mcpConfig: [included] }, "test");
    await expect(resolveServerSpecs(config, { env: {}, configPath: join(dir, "config.json") })).rejects.toThrow(
      new ConfigError(`MCP servers "Forge" (${included}) and "forge" (${join(dir, "config.json")}) differ only by case: ToolSearch reads server names ignoring case, so mcp__forge would list and select both; rename one`),
    );
    // The same name in an included file and the config is an override, as before.
    writeFileSync(included, JSON.stringify({ mcpServers: { forge: { command: "b" } } }));
    expect((await resolveServerSpecs(config, { env: {}, configPath: join(dir, "config.json") })).map((spec) => spec.name)).toEqual(["forge"]);
  });

  test("a URL that is not http(s) is refused", async () => {
    const config = parseConfig({ mcpServers: { s1: { type: "http", url: "ftp://host/mcp" } } }, "test");
    await expect(resolveServerSpecs(config, { env: {} })).rejects.toThrow('MCP server "s1": field "url" must be http or https, not ftp:');
  });

  test("mcpConfig includes .mcp.json files; the daemon config's own servers win", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { a: { command: "from-file" }, b: { type: "http", url: "http://127.0.0.1:1/mcp" } } }));
    const config = parseConfig({ mcpConfig: [".mcp.json"], mcpServers: { a: { command: "from-config" } } }, "test");
    const specs = await resolveServerSpecs(config, { env: {}, configPath: join(dir, "config.json") });
    expect(specs.map((spec) => [spec.name, spec.transport === "stdio" ? spec.command : spec.url, spec.origin])).toEqual([
      ["a", "from-config", join(dir, "config.json")],
      ["b", "http://127.0.0.1:1/mcp", join(dir, ".mcp.json")],
    ]);
  });

  test("a broken included file is a config error naming the file and field", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ mcpServers: { a: { args: [] } } }));
    writeFileSync(join(dir, "broken.json"), "{ not json");
    const config = (file: string) => parseConfig({ mcpConfig: [join(dir, file)] }, "test");
    await expect(resolveServerSpecs(config("bad.json"), { env: {} })).rejects.toThrow(`MCP config ${join(dir, "bad.json")} is invalid`);
    await expect(resolveServerSpecs(config("broken.json"), { env: {} })).rejects.toThrow("is not valid JSON");
    await expect(resolveServerSpecs(config("missing.json"), { env: {} })).rejects.toThrow("cannot read MCP config");
  });

  test("a mistake inside a server entry names its own field, for each shape of entry", () => {
    const refusal = (server: Record<string, unknown>): string => {
      try {
        parseConfig({ mcpServers: { x: server } }, "test");
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
        throw error;
      }
      return "accepted";
    };
    expect(refusal({ command: "x", startup: "later" })).toContain('field "mcpServers.x.startup"');
    expect(refusal({ command: "x", args: "a b" })).toContain('field "mcpServers.x.args"');
    expect(refusal({ type: "http" })).toContain('field "mcpServers.x.url"');
    expect(refusal({ type: "websocket", url: "ws://x" })).toContain('field "mcpServers.x.type"');
    expect(refusal({ comand: "x" })).toContain('field "mcpServers.x.command"');
    expect(refusal({ comand: "x" })).toContain("comand");
    expect(refusal({ type: "sse", url: "https://example.com/sse", command: "x" })).toContain("command");
    expect(refusal({ type: "stdio", command: "x" })).toBe("accepted");
  });
});
