/**
 * The daemon's hold on its socket path, from start to exit: the lock (waiting, bounded, for a
 * daemon that is still stopping), the listener (by inode), and the periodic check that both are
 * still ours. One object, so the daemon's start and stop each make one call.
 */
import { STOP_BUDGET_MS } from "../protocol/limits.ts";
import type { Socket } from "node:net";
import type { Logger } from "../runtime/logger.ts";
import { openLibc } from "../runtime/libc.ts";
import { connectionCeiling, SocketListener } from "./socket-listener.ts";
import { waitForSocketLock } from "./socket-lock.ts";
import { watchSocket } from "./socket-watch.ts";

export interface DaemonSocket {
  /** The drain began: a `serve` starting now waits for us; the periodic check stops. */
  stopping(): void;
  /** Stops listening, removes the socket if it is still ours, releases the lock. */
  close(): Promise<void>;
}

export async function openDaemonSocket(
  socketPath: string,
  onSocket: (socket: Socket) => void,
  logger: Logger,
  onLost: (reason: string) => void,
): Promise<DaemonSocket> {
  const lock = await waitForSocketLock(socketPath, STOP_BUDGET_MS + 1_000, (owner) =>
    logger.info("waiting for the previous daemon to finish stopping", { owner }),
  );
  // The lock is ours, so a socket file left here belongs to a dead daemon: the rename replaces it.
  const listener = new SocketListener(socketPath, onSocket, logger, { maxConnections: connectionCeiling(openLibc()?.fileLimit()?.hard) });
  try {
    await listener.listen();
  } catch (error) {
    lock.release();
    throw error;
  }
  const unwatch = watchSocket(listener, lock, logger, onLost);
  return {
    stopping() {
      unwatch();
      lock.markStopping();
    },
    async close() {
      unwatch();
      try {
        await listener.close();
      } finally {
        lock.release();
      }
    },
  };
}
