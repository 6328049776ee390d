/**
 * A periodic look at the socket file and the lock file beside it (two lstat/read calls every few
 * seconds). A daemon whose socket was deleted is unreachable while it still holds the lock — the
 * next `serve` would say one runs, `status` that none does — so a deleted socket or lock is made
 * again; one that now belongs to another daemon means that daemon owns the path, and this one
 * stops (without touching what is now the other's).
 */
import type { Logger } from "../runtime/logger.ts";
import type { SocketListener } from "./socket-listener.ts";
import type { SocketLock } from "./socket-lock.ts";

/** Often enough that a newcomer's 10 s orphaned-lock rule never sees our socket missing. */
export const SOCKET_CHECK_INTERVAL_MS = 2_000;

export function watchSocket(
  listener: SocketListener,
  lock: SocketLock,
  logger: Logger,
  onLost: (reason: string) => void,
  intervalMs: number = SOCKET_CHECK_INTERVAL_MS,
): () => void {
  let busy = false;
  const check = async () => {
    if (busy) return;
    busy = true;
    try {
      const held = lock.check();
      if (typeof held === "number") {
        logger.error("the lock file now names another daemon; stopping", { lock: lock.path, owner: held });
        return onLost(`lock taken over by pid ${held}`);
      }
      if (held === "recreated") logger.warn("the lock file was deleted; created it again", { lock: lock.path });
      const ownership = listener.ownership();
      if (ownership === "replaced") {
        logger.error("the socket path now holds another socket; stopping", { socket: listener.socketPath });
        return onLost("socket replaced");
      }
      if (ownership === "missing" && listener.listening) {
        await listener.recreate();
        logger.warn("the socket file was deleted; listening on a new one", { socket: listener.socketPath });
      }
    } catch (error) {
      logger.error("cannot restore the socket; stopping", { socket: listener.socketPath, error: (error as Error).message });
      onLost("socket could not be restored");
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
