/**
 * The systemd user unit for a ServiceSpec. Pure: the same spec gives the same text, so `print`
 * shows exactly what `install` writes and tests can pin it.
 *
 * Choices: restart on failure but not on exit 4 (another daemon owns the socket) or 5 (bad config
 * or socket path) — restarting cannot fix those, and systemd would give up noisily; SIGHUP reloads
 * the config; KillMode=mixed lets the daemon stop its MCP servers itself before anything left over
 * is killed at the stop timeout.
 */
import { STOP_TIMEOUT_SECONDS, type ServiceSpec } from "./service-spec.ts";

export function renderSystemdUnit(spec: ServiceSpec): string {
  return [
    "[Unit]",
    "Description=toolpool: tool-pool daemon for LLM agents",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${spec.argv.map(quoteArgument).join(" ")}`,
    "ExecReload=/bin/kill -HUP $MAINPID",
    `WorkingDirectory=${escapeSpecifiers(spec.workingDirectory)}`,
    // Captured at install time: MCP servers started with npx/uvx need the user's PATH.
    `Environment=${quoteArgument(`PATH=${spec.path}`)}`,
    "Restart=on-failure",
    "RestartSec=2",
    "RestartPreventExitStatus=4 5",
    `TimeoutStopSec=${STOP_TIMEOUT_SECONDS}`,
    "KillMode=mixed",
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

/**
 * One word of an ExecStart= or Environment= line. `%` starts a specifier and `$` a variable in
 * systemd's syntax, so both are doubled; words with spaces, quotes or backslashes are quoted.
 */
export function quoteArgument(word: string): string {
  const escaped = word.replaceAll("%", "%%").replaceAll("$", "$$$$");
  if (/^[A-Za-z0-9_@%+=:,./$-]+$/.test(escaped)) return escaped;
  return `"${escaped.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

function escapeSpecifiers(text: string): string {
  return text.replaceAll("%", "%%");
}
