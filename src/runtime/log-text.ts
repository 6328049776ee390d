/**
 * The terminal form of a log event: one line a person can read —
 * `14:03:07.512 WARN  call refused  tool=Bash reason="Permission denied: …"`.
 * Field values come from clients and MCP servers (tool names, stderr, reasons), so every control
 * character is escaped: a value can neither break the line nor send escape sequences to the terminal.
 */
import { escapeTerminal } from "./terminal-text.ts";

/** The levels of a log event, least severe first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** A line is bounded however large a field is: the JSON form keeps the whole value. */
const MAX_VALUE_CHARS = 400;
const LABEL: Record<LogLevel, string> = { debug: "DEBUG", info: "INFO ", warn: "WARN ", error: "ERROR" };
const COLOR: Record<LogLevel, string> = { debug: "\x1b[2m", info: "\x1b[36m", warn: "\x1b[33m", error: "\x1b[31m" };
const RESET = "\x1b[0m";

export interface TextFormatOptions {
  /** Colour the level (a terminal that has not asked for NO_COLOR). */
  color?: boolean;
}

export function formatTextLine(
  time: Date,
  level: LogLevel,
  message: string,
  fields: Record<string, unknown> | undefined,
  options: TextFormatOptions = {},
): string {
  const clock = `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}.${String(time.getMilliseconds()).padStart(3, "0")}`;
  const label = options.color ? `${COLOR[level]}${LABEL[level]}${RESET}` : LABEL[level];
  const parts = [clock, label, escapeTerminal(message)];
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value === undefined) continue;
    parts.push(`${escapeTerminal(key)}=${formatValue(value)}`);
  }
  return `${parts.join(" ")}\n`;
}

function formatValue(value: unknown): string {
  const text = typeof value === "string" ? value : stringify(value);
  const bounded = text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}… (${text.length} chars)` : text;
  const escaped = escapeTerminal(bounded);
  // Quote what would not read as one token: spaces, quotes, `=`, or nothing at all.
  return typeof value === "string" && (escaped === "" || /[\s"=]/.test(escaped)) ? `"${escaped.replaceAll('"', '\\"')}"` : escaped;
}

function stringify(value: unknown): string {
  if (value instanceof Error) return value.message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}
