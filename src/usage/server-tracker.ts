/**
 * MCP server state changes turned into server events: a connect (with its latency since the
 * attempt began), a failure, a restart (an attempt after a failure, a park or a live connection), a
 * park, and its end (with how long it lasted). A lazy server going idle and waking is not a restart.
 */
import { cut, MAX_NAME_CHARS, type StoredEvent } from "./usage-schema.ts";

/** Servers tracked; a config naming more is refused long before this. */
const MAX_TRACKED_SERVERS = 1_024;

interface ServerTrack {
  state: string;
  pendingSince: number | null;
  parkedSince: number | null;
}

export class ServerTracker {
  readonly #servers = new Map<string, ServerTrack>();

  constructor(private readonly now: () => number) {}

  transition(rawName: string, state: string): StoredEvent[] {
    const server = cut(rawName, MAX_NAME_CHARS);
    const at = this.now();
    let track = this.#servers.get(server);
    if (!track) {
      if (this.#servers.size >= MAX_TRACKED_SERVERS) return [];
      track = { state: "idle", pendingSince: null, parkedSince: null };
      this.#servers.set(server, track);
    }
    const previous = track.state;
    if (previous === state) return [];
    track.state = state;
    const event = (kind: "connect" | "failure" | "restart" | "parked" | "unparked", latencyMs: number | null = null, parkedMs: number | null = null): StoredEvent => ({
      type: "server",
      at,
      server,
      kind,
      latencyMs,
      parkedMs,
    });
    const events: StoredEvent[] = [];
    if (previous === "parked" && track.parkedSince !== null) {
      events.push(event("unparked", null, at - track.parkedSince));
      track.parkedSince = null;
    }
    switch (state) {
      case "pending":
        track.pendingSince = at;
        if (previous === "failed" || previous === "parked" || previous === "connected") events.push(event("restart"));
        break;
      case "connected":
        events.push(event("connect", track.pendingSince === null ? null : at - track.pendingSince));
        track.pendingSince = null;
        break;
      case "failed":
        events.push(event("failure"));
        track.pendingSince = null;
        break;
      case "parked":
        // Parking is the last failure of a run of them: it counts as one, and starts the parked clock.
        events.push(event("failure"), event("parked"));
        track.pendingSince = null;
        track.parkedSince = at;
        break;
    }
    return events;
  }

  /** Servers parked right now, and since when (stats count a park still running). */
  parkedNow(): Map<string, number> {
    const parked = new Map<string, number>();
    for (const [name, track] of this.#servers) if (track.parkedSince !== null) parked.set(name, track.parkedSince);
    return parked;
  }
}
