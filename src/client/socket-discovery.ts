/**
 * Which socket a client talks to when none is named. In order: `--socket`, $TOOLPOOL_SOCKET (both
 * taken as they are: a named socket is never swapped for another), then $XDG_RUNTIME_DIR/toolpool/…
 * if a daemon answers there, then the socket the user's running daemon recorded (see
 * daemon-record.ts), then /tmp/toolpool-<uid>/…. So a host that starts `toolpool mcp` with nothing
 * but HOME and PATH reaches the daemon the service (or a terminal's `serve`) started.
 *
 * Without XDG_RUNTIME_DIR the record comes before the /tmp default: the record names the daemon the
 * user started last, in whatever environment; the /tmp socket is only where a daemon started with
 * no environment listens (and such a daemon records itself too, so both roads lead to it).
 */
import { existsSync, lstatSync } from "node:fs";
import { connect as netConnect } from "node:net";
import { dirname, resolve } from "node:path";
import { defaultSocketPath } from "../protocol/default-socket.ts";
import { type DaemonRecord, readDaemonRecord, socketIsOurs } from "./daemon-record.ts";

export type SocketSource = "option" | "environment" | "default" | "record";

export interface DaemonLocation {
  /** Where to connect — or, when nothing answers, where a daemon should be started. */
  socketPath: string;
  source: SocketSource;
  /** A daemon accepted a connection there just now. */
  answering: boolean;
  /** The trusted record, when there is one (its config is the user's, also when our env lacks XDG_CONFIG_HOME). */
  record?: DaemonRecord;
}

export interface LocateOptions {
  flag?: string | undefined;
  env?: NodeJS.ProcessEnv;
  uid?: number | undefined;
  /** Whether a daemon accepts a connection on a socket; default: connect and close, 500 ms at most. */
  answers?: (socketPath: string) => Promise<boolean>;
}

export async function locateDaemon(options: LocateOptions = {}): Promise<DaemonLocation> {
  const env = options.env ?? process.env;
  const uid = "uid" in options ? options.uid : process.getuid?.();
  const answers = options.answers ?? socketAnswers;
  if (options.flag) return { socketPath: resolve(options.flag), source: "option", answering: await answers(resolve(options.flag)) };
  if (env.TOOLPOOL_SOCKET) return { socketPath: resolve(env.TOOLPOOL_SOCKET), source: "environment", answering: await answers(resolve(env.TOOLPOOL_SOCKET)) };
  const primary = resolve(defaultSocketPath(env, uid));
  const source: SocketSource = env.XDG_RUNTIME_DIR ? "environment" : "default";
  const record = readDaemonRecord(env, uid);
  const withRecord = record ? { record } : {};
  const recorded = async () => record !== undefined && record.socket !== primary && socketIsOurs(record.socket, uid) && (await answers(record.socket));
  // The default path is only a name: /tmp/toolpool-<uid> can be made by another local user before
  // our daemon ever ran, with their socket in it, and every caller connects to the path this
  // returns. So a default whose directory is not ours and private is never answered nor returned.
  const foreign = foreignSocketPlace(primary, uid);
  if (env.XDG_RUNTIME_DIR && !foreign && (await answers(primary))) return { socketPath: primary, source, answering: true, ...withRecord };
  if (record && (await recorded())) return { socketPath: record.socket, source: "record", answering: true, record };
  if (!env.XDG_RUNTIME_DIR && !foreign && (await answers(primary))) return { socketPath: primary, source, answering: true, ...withRecord };
  if (foreign) throw new ForeignSocketError(`${foreign}; refusing to connect there, since whoever made it may be listening (remove it, or name a socket with --socket or TOOLPOOL_SOCKET)`);
  // Nobody answers. Without XDG_RUNTIME_DIR in our environment, a daemon started now goes where the
  // user's last one listened (if that directory is still there), so the next `serve` of the service
  // and this one do not end up on two sockets.
  // (Only a place still ours: after a reboot empties /tmp, another user may have made that directory.)
  if (!env.XDG_RUNTIME_DIR && record && existsSync(dirname(record.socket)) && !foreignSocketPlace(record.socket, uid)) {
    return { socketPath: record.socket, source: "record", answering: false, record };
  }
  return { socketPath: primary, source, answering: false, ...withRecord };
}

export class ForeignSocketError extends Error {}

/**
 * Why the default socket's place is not ours, or undefined when it is (or does not exist yet: a
 * daemon started there makes it 0700). The same conditions the daemon requires of its directory
 * (socket-path.ts), and the socket, when there is one, must be ours too.
 */
export function foreignSocketPlace(socketPath: string, uid: number | undefined): string | undefined {
  const directory = dirname(socketPath);
  let stats;
  try {
    stats = lstatSync(directory);
  } catch {
    return undefined;
  }
  if (stats.isSymbolicLink() || !stats.isDirectory()) return `socket directory ${directory} is not a directory of yours`;
  if (uid !== undefined && stats.uid !== uid) return `socket directory ${directory} is owned by uid ${stats.uid}, not by you (uid ${uid})`;
  if ((stats.mode & 0o022) !== 0) return `socket directory ${directory} can be written by others (mode ${(stats.mode & 0o7777).toString(8)})`;
  try {
    const socket = lstatSync(socketPath);
    if (uid !== undefined && socket.uid !== uid) return `socket ${socketPath} is owned by uid ${socket.uid}, not by you (uid ${uid})`;
  } catch {
    return undefined;
  }
  return undefined;
}

/** A connect-and-close probe: true when something accepts on the socket within `timeoutMs`. */
export function socketAnswers(socketPath: string, timeoutMs = 500): Promise<boolean> {
  return new Promise((settle) => {
    const socket = netConnect(socketPath);
    const timer = setTimeout(() => finish(false), timeoutMs);
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      settle(ok);
    };
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}
