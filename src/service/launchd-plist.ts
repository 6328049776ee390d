/**
 * The launchd agent (macOS) for a ServiceSpec. Pure, like the systemd unit. KeepAlive with
 * SuccessfulExit=false restarts the daemon when it fails but not after a clean stop; ExitTimeOut
 * gives the daemon's drain time before launchd sends SIGKILL.
 */
import { LAUNCHD_LABEL, STOP_TIMEOUT_SECONDS, type ServiceSpec } from "./service-spec.ts";

export function renderLaunchdPlist(spec: ServiceSpec): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    "<dict>",
    ...entry("Label", string(LAUNCHD_LABEL)),
    "  <key>ProgramArguments</key>",
    "  <array>",
    ...spec.argv.map((word) => `    ${string(word)}`),
    "  </array>",
    "  <key>EnvironmentVariables</key>",
    "  <dict>",
    `    <key>PATH</key>`,
    `    ${string(spec.path)}`,
    "  </dict>",
    ...entry("WorkingDirectory", string(spec.workingDirectory)),
    ...entry("RunAtLoad", "<true/>"),
    "  <key>KeepAlive</key>",
    "  <dict>",
    "    <key>SuccessfulExit</key>",
    "    <false/>",
    "  </dict>",
    ...entry("ThrottleInterval", "<integer>5</integer>"),
    ...entry("ExitTimeOut", `<integer>${STOP_TIMEOUT_SECONDS}</integer>`),
    ...entry("StandardOutPath", string(spec.logPath)),
    ...entry("StandardErrorPath", string(spec.logPath)),
    "</dict>",
    "</plist>",
    "",
  ];
  return lines.join("\n");
}

function entry(key: string, value: string): string[] {
  return [`  <key>${escapeXml(key)}</key>`, `  ${value}`];
}

function string(text: string): string {
  return `<string>${escapeXml(text)}</string>`;
}

export function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&apos;");
}
