/** `toolpool/explain`: params and result (docs/protocol.md). Value-free but for the schema. */
import { z } from "zod";

export const explainParams = z.lazy(() =>
  z.strictObject({
    /** A tool name or alias, as a model or a config would write it. */
    name: z.string().min(1).max(256).regex(/^[^,\s]+$/, "a tool name has no commas or spaces"),
    /** The session to explain for; by default the connection's, else the most recently active one. */
    sessionId: z.string().min(1).max(128).optional(),
  }),
);

export type DecisionStep =
  | "compiled"
  | "deny_rule"
  | "server"
  | "pool"
  | "alias"
  | "collision"
  | "enabled"
  | "session"
  | "profile"
  | "kill_switch"
  | "permissions"
  | "deferral"
  | "delivery"
  | "discovered"
  | "promoted"
  | "sandbox";

export interface Decision {
  step: DecisionStep;
  /** `pass`: let through; `blocked`: kept out here; `note`: a fact on the way. */
  verdict: "pass" | "blocked" | "note";
  reason: string;
  rule?: string;
  source?: string;
  server?: string;
  state?: string;
  via?: Discovery["via"];
  query?: string;
}

/** How a deferred tool became usable in a session. */
export interface Discovery {
  via: "transcript" | "search" | "prefetch";
  /** The ToolSearch query that found it (kept in the daemon's memory only, truncated). */
  query?: string;
}

export interface Explanation {
  name: string;
  /** The pool name the name resolved to. */
  tool?: string;
  session?: string;
  /** In the session's tools array right now (proxy delivery runs discovered tools without it). */
  inToolsArray: boolean;
  /**
   * Can the session's model call it now: directly, or through ExecuteExtraTool once discovered in
   * proxy delivery (permission rules on its input aside). Without a session: it is in the pool.
   */
  callable: boolean;
  summary: string;
  decisions: Decision[];
  didYouMean?: string[];
}
