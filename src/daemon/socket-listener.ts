/**
 * The listening socket, owned by inode. Bun's `server.close()` unlinks the path it listened on,
 * whoever's file is there by then — that is how a daemon draining after SIGTERM used to delete the
 * socket of the daemon that replaced it. So the server listens on a private name and the socket
 * is renamed into place (atomic, and it replaces a dead daemon's socket in one step); closing
 * unlinks only the private name, and the daemon removes the real path itself, only while the inode
 * there is the one it created.
 *
 * It also keeps accepting from costing what it cannot pay: at the connection ceiling (derived from
 * the descriptor limit) a new client is answered "too many connections" and closed; when a
 * descriptor cannot be opened at all (EMFILE/ENFILE, from any cause) the listener is closed — the
 * socket file stays — and reopened once descriptors are free, instead of the event loop spinning
 * on a readable listener it cannot accept from.
 */
import { chmodSync, closeSync, lstatSync, openSync, renameSync, unlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { basename, dirname, join } from "node:path";
import { ErrorCode } from "../protocol/jsonrpc.ts";
import type { Logger } from "../runtime/logger.ts";
import { MAX_SOCKET_PATH_BYTES } from "./socket-path.ts";

export interface ListenerOptions {
  /** Connections served at once; more are refused with a message. */
  maxConnections: number;
  /** How often descriptor exhaustion is probed for while listening. */
  probeIntervalMs?: number;
  /** Opens a descriptor to prove one is free (tests make it fail). */
  probeDescriptor?: () => void;
}

interface Identity {
  dev: number;
  ino: number;
}

export class SocketListener {
  #server: Server | undefined;
  #identity: Identity | undefined;
  #active = 0;
  #closed = false;
  #starved = false;
  #probe: ReturnType<typeof setInterval> | undefined;
  #generation = 0;
  /** Connections refused at the ceiling since start. */
  refused = 0;

  constructor(
    readonly socketPath: string,
    private readonly onSocket: (socket: Socket) => void,
    private readonly logger: Logger,
    private readonly options: ListenerOptions,
  ) {}

  /** Listens and puts the socket in place (0600 from the start). */
  async listen(): Promise<void> {
    await this.#open();
    const probe = this.options.probeDescriptor ?? probeDescriptor;
    this.#probe = setInterval(() => this.#checkDescriptors(probe), this.options.probeIntervalMs ?? 500);
    this.#probe.unref?.();
  }

  get listening(): boolean {
    return this.#server !== undefined;
  }

  /** Is the socket at our path the one we created? "missing" when nothing is there. */
  ownership(): "ours" | "missing" | "replaced" {
    let stats;
    try {
      stats = lstatSync(this.socketPath);
    } catch {
      return "missing";
    }
    return this.#identity && stats.dev === this.#identity.dev && stats.ino === this.#identity.ino ? "ours" : "replaced";
  }

  /** The socket file was deleted from under us: listen again and put a new one in place. */
  async recreate(): Promise<void> {
    await this.#closeServer();
    await this.#open();
  }

  /** Stops listening and removes the socket file if, and only if, it is still ours. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#probe) clearInterval(this.#probe);
    await this.#closeServer();
    if (this.ownership() === "ours") removeQuietly(this.socketPath);
  }

  async #open(): Promise<void> {
    const generation = ++this.#generation;
    const server = createServer({ allowHalfOpen: true }, (socket) => this.#accept(socket));
    const privatePath = privateName(this.socketPath);
    // Left by an earlier process with our pid killed between listen and rename: the name is ours.
    if (privatePath !== this.socketPath) removeQuietly(privatePath);
    const previousUmask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(privatePath, () => {
          server.off("error", reject);
          resolve();
        });
      });
    } finally {
      process.umask(previousUmask);
    }
    server.on("error", (error) => this.logger.warn("listener error", { error: error.message }));
    chmodSync(privatePath, 0o600);
    if (privatePath !== this.socketPath) renameSync(privatePath, this.socketPath);
    const stats = lstatSync(this.socketPath);
    this.#identity = { dev: stats.dev, ino: stats.ino };
    this.#server = server;
    if (generation !== this.#generation || this.#closed) await this.#closeServer();
  }

  async #closeServer(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #accept(socket: Socket): void {
    if (this.#active >= this.options.maxConnections) {
      this.refused++;
      if (this.refused === 1 || this.refused % 1000 === 0) {
        this.logger.warn("refusing connections: at the connection ceiling", { limit: this.options.maxConnections, refused: this.refused });
      }
      socket.on("error", () => {});
      const message = `Too many connections (limit ${this.options.maxConnections}); try again when another client has disconnected`;
      socket.end(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.Overloaded, message } })}\n`);
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    this.#active++;
    socket.once("close", () => this.#active--);
    this.onSocket(socket);
  }

  #checkDescriptors(probe: () => void): void {
    if (this.#closed) return;
    let exhausted = false;
    try {
      probe();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      exhausted = code === "EMFILE" || code === "ENFILE";
    }
    if (exhausted && this.#server) {
      this.#starved = true;
      this.logger.warn("out of file descriptors: not accepting connections until some are free", { connections: this.#active });
      void this.#closeServer();
    } else if (!exhausted && this.#starved && !this.#server) {
      this.#starved = false;
      this.logger.info("file descriptors are free again: accepting connections", { connections: this.#active });
      void this.#open().catch((error: Error) => {
        this.#starved = true;
        this.logger.warn("cannot listen again yet", { error: error.message });
      });
    }
  }
}

/** A name beside the socket, short enough for sun_path; the socket path itself when none fits. */
function privateName(socketPath: string): string {
  const candidate = join(dirname(socketPath), `.${basename(socketPath).slice(0, 8)}.${process.pid}`);
  return Buffer.byteLength(candidate) <= MAX_SOCKET_PATH_BYTES ? candidate : socketPath;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}

function probeDescriptor(): void {
  closeSync(openSync("/dev/null", "r"));
}

/** Connections the daemon serves at once: the descriptor limit less a reserve for everything else. */
export function connectionCeiling(fileLimit: number | undefined): number {
  const limit = fileLimit ?? 1024;
  return Math.max(8, limit - Math.max(32, Math.floor(limit / 10)));
}
