/**
 * Where the daemon listens when no path is named: $TOOLPOOL_SOCKET, else
 * $XDG_RUNTIME_DIR/toolpool/toolpool.sock, else /tmp/toolpool-<uid>/toolpool.sock. One function,
 * shared by the daemon, the CLI and the client library, so they never disagree. (No I/O: the
 * environment and uid are passed in.)
 */
export function defaultSocketPath(env: Record<string, string | undefined>, uid: number | undefined): string {
  if (env.TOOLPOOL_SOCKET) return env.TOOLPOOL_SOCKET;
  if (env.XDG_RUNTIME_DIR) return `${env.XDG_RUNTIME_DIR.replace(/\/+$/, "")}/toolpool/toolpool.sock`;
  return `/tmp/toolpool-${uid ?? "user"}/toolpool.sock`;
}
