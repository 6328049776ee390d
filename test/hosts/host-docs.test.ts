/**
 * Each "adopt from your host" page (docs/hosts/) shows a file in that host's real format: the block
 * is imported here as the host's own file, and host add / remove run against it.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configCommand } from "../../src/cli/config-command.ts";
import { hostCommand } from "../../src/cli/host-command.ts";
import { HOST_NAMES } from "../../src/hosts/host-files.ts";
import { REPO_ROOT } from "../helpers/binary.ts";

const DOCS = join(REPO_ROOT, "docs", "hosts");
/** Where each host's file goes, relative to a fresh home (its user-level place on Linux). */
const PLACE: Record<string, string> = {
  "claude-desktop": ".config/Claude/claude_desktop_config.json",
  "claude-code": ".claude.json",
  cursor: ".cursor/mcp.json",
  vscode: ".config/Code/User/mcp.json",
  windsurf: ".codeium/windsurf/mcp_config.json",
  "gemini-cli": ".gemini/settings.json",
  codex: ".codex/config.toml",
};

test("there is one page per host, and the index links each", () => {
  const pages = readdirSync(DOCS).filter((name) => name !== "README.md").map((name) => name.replace(/\.md$/, "")).sort();
  expect(pages).toEqual([...HOST_NAMES].sort());
  const index = readFileSync(join(DOCS, "README.md"), "utf8");
  for (const host of HOST_NAMES) expect(index).toContain(`(${host}.md)`);
});

describe.each([...HOST_NAMES])("docs/hosts/%s.md", (host) => {
  test("its sample is that host's format: config import reads its servers; host add and remove round-trip the file", async () => {
    const page = readFileSync(join(DOCS, `${host}.md`), "utf8");
    const sample = /```(?:json|jsonc|toml)\n([\s\S]*?)\n```/.exec(page)?.[1];
    expect(sample).toBeDefined();
    const home = mkdtempSync(join(tmpdir(), "toolpool-test-docs-"));
    const file = join(home, PLACE[host]!);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, `${sample}\n`);
    const places = { env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config") }, cwd: home, platform: "linux" as const };
    const out: string[] = [];
    expect(await configCommand(["import"], { json: true, write: false, out: (text) => out.push(text), err: () => {}, places })).toBe(0);
    const imported = JSON.parse(out[0]!) as { mcpServers: Record<string, unknown>; files: { host: string; file: string }[] };
    expect(imported.files.map((read) => [read.host, read.file])).toEqual([[host, file]]);
    expect(Object.keys(imported.mcpServers).length).toBeGreaterThanOrEqual(2);
    const run = (action: string) => hostCommand([action, host], { json: false, move: false, out: () => {}, err: () => {}, places, binary: "/opt/toolpool/bin/toolpool" });
    const before = readFileSync(file, "utf8");
    expect(await run("add")).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("/opt/toolpool/bin/toolpool");
    expect(await run("remove")).toBe(0);
    const after = readFileSync(file, "utf8");
    // TOML is edited as text (byte for byte back); JSON files come back with the same content.
    if (host === "codex") expect(after).toBe(before);
    else expect(JSON.parse(after)).toEqual(Bun.JSONC.parse(before));
  });
});
