/**
 * What request handlers may use of the wire: the session a request means and the one way a
 * connection's session changes, plus a few facts about the daemon itself. Handlers get these
 * narrow views and the parts of the core they use, never the Daemon.
 */
import type { SandboxState } from "../sandbox/command-sandbox.ts";
import type { BuildInfo } from "../build-info.ts";
import type { Session } from "../session/session.ts";
import type { Peer } from "./peer.ts";

export interface SessionBinding {
  /** The session a request means: the one it names, else its connection's (opened on first use). */
  sessionFor(connection: Peer, sessionId: string | undefined): Session;
  /** The connection now speaks for this session: attach counts and held cron firings follow. */
  bind(connection: Peer, session: Session): void;
}

export interface WireFacts {
  readonly info: BuildInfo;
  readonly socketPath: string;
  readonly startedAt: number;
  readonly connections: ReadonlySet<Peer>;
  /** The Bash sandbox, when this daemon has one (`toolpool serve` always does). */
  readonly sandbox?: { state(): SandboxState } | undefined;
  requestShutdown(reason: string): void;
}
