/** `toolpool/sessions`: the daemon's sessions, for `toolpool sessions` and `explain --session ID`. */

/** At most this many sessions are listed (the most recently active first). */
export const MAX_LISTED_SESSIONS = 200;

export interface SessionSummary {
  id: string;
  clientName: string;
  model: string;
  delivery: string;
  /** Connections attached now; 0: detached (resumable by id until it expires). */
  attached: number;
  calls: number;
  lastActiveAt: string;
  workspaceRoots: string[];
  profile: string | null;
}

export interface SessionsResult {
  sessions: SessionSummary[];
  /** Sessions not listed past MAX_LISTED_SESSIONS. */
  more: number;
}
