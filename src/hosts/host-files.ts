/**
 * The MCP hosts toolpool reads and writes, and where each keeps its server list on Linux and
 * macOS. The formats differ in small ways that matter: VS Code keys servers under `servers` (with
 * `inputs` and an explicit `type`), Windsurf names a remote server's address `serverUrl`, Claude
 * Code's ~/.claude.json holds user servers at the top and per-project servers under `projects`.
 * The command-line agents: Gemini CLI's settings.json (`mcpServers`; `url` is SSE, `httpUrl`
 * Streamable HTTP) and Codex CLI's TOML config (`[mcp_servers.NAME]` tables).
 */
import { homedir } from "node:os";
import { join } from "node:path";

export const HOST_NAMES = ["claude-desktop", "claude-code", "cursor", "vscode", "windsurf", "gemini-cli", "codex"] as const;
export type HostName = (typeof HOST_NAMES)[number];

export function isHostName(name: string): name is HostName {
  return (HOST_NAMES as readonly string[]).includes(name);
}

/** The layout of one file: which key holds the servers, and whether it is JSONC. */
export type FileFormat = "claude-desktop" | "claude-code-project" | "claude-code-user" | "cursor" | "vscode" | "windsurf" | "gemini-cli" | "codex";

export interface HostFile {
  host: HostName;
  format: FileFormat;
  path: string;
  /** `user`: applies everywhere; `project`: the current directory's project only. */
  scope: "user" | "project";
}

export interface HostPlaces {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  cwd: string;
}

export function defaultPlaces(overrides: Partial<HostPlaces> = {}): HostPlaces {
  return { env: overrides.env ?? process.env, platform: overrides.platform ?? process.platform, cwd: overrides.cwd ?? process.cwd() };
}

function home(places: HostPlaces): string {
  return places.env.HOME || homedir();
}

/** The per-user application-data directory: ~/Library/Application Support, else $XDG_CONFIG_HOME. */
function appData(places: HostPlaces): string {
  if (places.platform === "darwin") return join(home(places), "Library", "Application Support");
  return places.env.XDG_CONFIG_HOME || join(home(places), ".config");
}

/** Every file a host reads servers from, user files first, in the order the host itself reads them. */
export function hostFiles(host: HostName, places: HostPlaces): HostFile[] {
  const file = (format: FileFormat, path: string, scope: "user" | "project" = "user"): HostFile => ({ host, format, path, scope });
  switch (host) {
    case "claude-desktop":
      return [file("claude-desktop", join(appData(places), "Claude", "claude_desktop_config.json"))];
    case "claude-code":
      return [file("claude-code-user", join(home(places), ".claude.json")), file("claude-code-project", join(places.cwd, ".mcp.json"), "project")];
    case "cursor":
      return [file("cursor", join(home(places), ".cursor", "mcp.json")), file("cursor", join(places.cwd, ".cursor", "mcp.json"), "project")];
    case "vscode":
      return [file("vscode", join(appData(places), "Code", "User", "mcp.json")), file("vscode", join(places.cwd, ".vscode", "mcp.json"), "project")];
    case "windsurf":
      return [file("windsurf", join(home(places), ".codeium", "windsurf", "mcp_config.json"))];
    case "gemini-cli":
      return [file("gemini-cli", join(home(places), ".gemini", "settings.json")), file("gemini-cli", join(places.cwd, ".gemini", "settings.json"), "project")];
    case "codex":
      // Codex reads $CODEX_HOME/config.toml, ~/.codex by default.
      return [file("codex", join(places.env.CODEX_HOME || join(home(places), ".codex"), "config.toml"))];
  }
}

/** The user-level file `host add` writes the bridge entry into. */
export function hostUserFile(host: HostName, places: HostPlaces): HostFile {
  return hostFiles(host, places)[0]!;
}

/** A named file's format, from its name and, when the name says nothing, its shape. */
export function detectFormat(path: string, content: unknown): { host: HostName; format: FileFormat } {
  const name = path.split("/").at(-1) ?? "";
  const object = typeof content === "object" && content !== null ? (content as Record<string, unknown>) : {};
  if (name === "claude_desktop_config.json") return { host: "claude-desktop", format: "claude-desktop" };
  if (name === "mcp_config.json") return { host: "windsurf", format: "windsurf" };
  if (name.endsWith(".toml") || "mcp_servers" in object) return { host: "codex", format: "codex" };
  if (path.includes("/.gemini/")) return { host: "gemini-cli", format: "gemini-cli" };
  if (name === ".claude.json" || ("projects" in object && !("servers" in object))) return { host: "claude-code", format: "claude-code-user" };
  if (path.includes("/.cursor/")) return { host: "cursor", format: "cursor" };
  if ("servers" in object && !("mcpServers" in object)) return { host: "vscode", format: "vscode" };
  if (path.includes("/.vscode/") || path.includes("/Code/User/")) return { host: "vscode", format: "vscode" };
  return { host: "claude-code", format: "claude-code-project" };
}

/**
 * Files a host may also use that `hostFiles` does not read: with XDG_CONFIG_HOME pointing away from
 * ~/.config, a desktop app started without that variable (from a launcher, a service) keeps its
 * config under ~/.config. `config import` names these when they exist, instead of skipping them in
 * silence; the user imports one by naming it.
 */
export function otherHostFiles(places: HostPlaces): HostFile[] {
  if (places.platform === "darwin" || !places.env.XDG_CONFIG_HOME) return [];
  const plain = join(home(places), ".config");
  if (places.env.XDG_CONFIG_HOME.replace(/\/+$/, "") === plain) return [];
  return [
    { host: "claude-desktop", format: "claude-desktop", path: join(plain, "Claude", "claude_desktop_config.json"), scope: "user" },
    { host: "vscode", format: "vscode", path: join(plain, "Code", "User", "mcp.json"), scope: "user" },
  ];
}
