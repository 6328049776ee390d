/**
 * Logs on stderr, one event per line, with a level threshold: JSON lines for machines (the default,
 * and what a service manager or a pipe gets), or a short text line for a person at a terminal.
 */
import { formatTextLine, type LogLevel } from "./log-text.ts";

export type { LogLevel };
export type LogFormat = "json" | "text";

export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];
export const LOG_FORMATS: readonly LogFormat[] = ["json", "text"];

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  setLevel(level: LogLevel): void;
}

export interface LoggerOptions {
  format?: LogFormat;
  /** Text format only: colour the level. */
  color?: boolean;
  /** A level given on the command line: later `setLevel` calls (a config reload) leave it. */
  pinned?: boolean;
  now?: () => Date;
}

export function createLogger(
  level: LogLevel = "info",
  /** Gets each formatted line and the level it was logged at. */
  write: (line: string, level: LogLevel) => void = (line) => process.stderr.write(line),
  options: LoggerOptions = {},
): Logger {
  let threshold = RANK[level];
  const now = options.now ?? (() => new Date());
  const format = options.format ?? "json";
  const emit = (at: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (RANK[at] < threshold) return;
    const time = now();
    write(
      format === "text"
        ? formatTextLine(time, at, message, fields, { color: options.color ?? false })
        : `${JSON.stringify({ time: time.toISOString(), level: at, message, ...fields })}\n`,
      at,
    );
  };
  return {
    debug: (message, fields) => emit("debug", message, fields),
    info: (message, fields) => emit("info", message, fields),
    warn: (message, fields) => emit("warn", message, fields),
    error: (message, fields) => emit("error", message, fields),
    setLevel: (next) => {
      if (!options.pinned) threshold = RANK[next];
    },
  };
}

/**
 * The format `serve` logs in: what `--log-format` says, else text when stderr is a terminal and
 * JSON otherwise (a pipe, a file, journald).
 */
export function chooseLogFormat(requested: LogFormat | undefined, stderrIsTty: boolean): LogFormat {
  return requested ?? (stderrIsTty ? "text" : "json");
}

export const silentLogger: Logger = createLogger("error", () => {});
