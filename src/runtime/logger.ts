/** JSON-lines logs on stderr, one object per event, with a level threshold. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  setLevel(level: LogLevel): void;
}

export function createLogger(
  level: LogLevel = "info",
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  let threshold = RANK[level];
  const emit = (at: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (RANK[at] < threshold) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: at, message, ...fields })}\n`);
  };
  return {
    debug: (message, fields) => emit("debug", message, fields),
    info: (message, fields) => emit("info", message, fields),
    warn: (message, fields) => emit("warn", message, fields),
    error: (message, fields) => emit("error", message, fields),
    setLevel: (next) => {
      threshold = RANK[next];
    },
  };
}

export const silentLogger: Logger = createLogger("error", () => {});
