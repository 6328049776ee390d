/**
 * A server named inside a longer query ("open a merge request in GitLab", "add an event to my
 * Google Calendar"). Naming a server is a statement about membership: every tool of that server
 * gets the same credit for it, however often (or whether) its description repeats the name.
 * Without this, a server's boilerplate-heavy tools win because they say "GitLab" three times,
 * and a CamelCase spelling ("GitHub" → git, hub) never meets the server field ("github") at all.
 */
import { squash } from "./document-fields.ts";

/** Word windows compared with server names: "Google Calendar", "Azure DevOps Server". */
const MAX_WINDOW_WORDS = 3;
/** Only the first words of a long query are compared, so a pasted page costs a bounded amount. */
const MAX_SCANNED_WORDS = 96;
/** Server names shorter than this (squashed) are not recognised inside a query. */
const MIN_SERVER_CHARS = 3;
const EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const POSSESSIVE = /['’]s$/u;

/** A word window of the query text that could spell a server name. */
export interface MentionCandidate {
  /** Squashed window text, the key of the server registry. */
  key: string;
  /** The raw words of the window. */
  words: string;
  /** Their index terms (filled by the query cache). */
  terms: string[];
  start: number;
  end: number;
}

/** What the ranker needs to treat a mention as membership. */
export interface MentionInput {
  /** Terms the mention's words tokenize to (still ranked normally for tools of other servers). */
  terms: readonly string[];
  /** Slots of the named servers' tools. */
  memberSlots: readonly number[];
  isMember(slot: number): boolean;
  /** IDF of membership itself, log(1 + (N − m + .5) / (m + .5)) for m member tools. */
  membershipIdf: number;
}

/** A mention resolved against one prepared query. */
export interface ServerMention extends MentionInput {
  /** Ids of `terms` that are query terms. */
  termIds: ReadonlySet<number>;
  /** IDF sum of those terms: credited to members in the coverage share. */
  idf: number;
}

/** Windows of 1–3 words, longest first at each position; depends on the text alone (cacheable). */
export function mentionCandidates(text: string): MentionCandidate[] {
  const words = text
    .split(/\s+/)
    .slice(0, MAX_SCANNED_WORDS)
    .map((word) => word.replace(EDGES, "").replace(POSSESSIVE, ""));
  const candidates: MentionCandidate[] = [];
  for (let start = 0; start < words.length; start++) {
    for (let size = Math.min(MAX_WINDOW_WORDS, words.length - start); size >= 1; size--) {
      const window = words.slice(start, start + size);
      if (window.some((word) => word.length === 0)) continue;
      const key = squash(window.join(""));
      if (key.length < MIN_SERVER_CHARS) continue;
      candidates.push({ key, words: window.join(" "), terms: [], start, end: start + size });
    }
  }
  return candidates;
}

/**
 * The servers a query names: the longest window at each position that is a server's name,
 * windows never overlapping. `serverOf` maps a squashed key to a server id.
 */
export function findMentions(
  candidates: readonly MentionCandidate[],
  serverOf: (key: string) => number | undefined,
): { servers: number[]; terms: string[] } {
  const servers: number[] = [];
  const terms: string[] = [];
  let coveredUntil = 0;
  for (const candidate of candidates) {
    if (candidate.start < coveredUntil) continue;
    const id = serverOf(candidate.key);
    if (id === undefined) continue;
    if (!servers.includes(id)) servers.push(id);
    terms.push(...candidate.terms);
    coveredUntil = candidate.end;
  }
  return { servers, terms };
}

/** Membership evidence for the ranker: the mention's terms, the members, and how rare membership is. */
export function mentionInput(terms: readonly string[], memberSlots: readonly number[], liveCount: number, isMember: (slot: number) => boolean): MentionInput {
  const total = Math.max(liveCount, 1);
  const count = memberSlots.length;
  return { terms, memberSlots, isMember, membershipIdf: Math.log(1 + (total - count + 0.5) / (count + 0.5)) };
}
