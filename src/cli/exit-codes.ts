/** Exit codes scripts can rely on. Documented in README and docs/operations.md. */
export const ExitCode = {
  Ok: 0,
  /** The command ran and failed: a tool returned an error, the daemon refused the request. */
  Failed: 1,
  /** The command line itself is wrong. */
  Usage: 2,
  /** No daemon is running on the socket. */
  NotRunning: 3,
  /** `serve`: another daemon already owns the socket. */
  AlreadyRunning: 4,
  /** `serve`: the config or the socket path is unusable. */
  BadConfig: 5,
} as const;

export class UsageError extends Error {}
