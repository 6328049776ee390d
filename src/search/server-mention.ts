/**
 * A server named inside a longer query ("open a merge request in GitLab", "add an event to my
 * Google Calendar"). Naming a server is a statement about membership: every tool of that server
 * gets the same credit for it, however often (or whether) its description repeats the name.
 * Without this, a server's boilerplate-heavy tools win because they say "GitLab" three times,
 * and a CamelCase spelling ("GitHub" → git, hub) never meets the server field ("github") at all.
 */
import { isLowerAsciiWord } from "./char-class.ts";
import { squash } from "./document-fields.ts";
import { KEY_HASH_SEED, keyHash } from "./server-registry.ts";

/** Word windows compared with server names: "Google Calendar", "Azure DevOps Server". */
const MAX_WINDOW_WORDS = 3;
/** Only the first words of a long query are compared, so a pasted page costs a bounded amount. */
export const MAX_SCANNED_WORDS = 96;
/** Server names shorter than this (squashed) are not recognised inside a query. */
const MIN_SERVER_CHARS = 3;
const EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const POSSESSIVE = /['’]s$/u;

/**
 * One word of a query as server-name windows are made of (a query word's facts are one:
 * query-words.ts), with the filter's answers about the word alone kept beside it.
 */
export interface MentionWord {
  /** The word trimmed of edge punctuation and a possessive 's (empty when nothing was left). */
  mentionWord: string;
  /** It squashed (lowercase letters and digits). */
  mentionKey: string;
  /** The key's keyHash from KEY_HASH_SEED: a window's hash starts from its first word's. */
  mentionHash: number;
  /** The key's length, or -1 when the word is empty: a window is measured without reading its strings. */
  mentionLength: number;
  /**
   * ServerKeys' answers for the key alone (MAY_PREFIX, MAY_BE), as of its `keysVersion`
   * `mentionAt` (-1: never asked): a word met again asks the filter nothing.
   */
  mentionBits: number;
  mentionAt: number;
}

/** The words of a query as server-name windows are made of: text-only, so cacheable. */
export interface MentionWords {
  /** The query's first MAX_SCANNED_WORDS words. */
  words: readonly MentionWord[];
}

/** The server-name keys an index knows, as findMentions needs them (hashes by server-registry's keyHash). */
export interface ServerKeys {
  idOfKey(key: string): number | undefined;
  /** False when no known key starts with the hashed text: a window that cannot grow into a name stops. */
  mayPrefixKey(hash: number): boolean;
  /** False when no known key is the hashed text: no string is built, no exact lookup made. */
  mayBeKey(hash: number): boolean;
  /** The server's name as configured (its tools' server field holds that name's terms). */
  nameOf?(id: number): string;
  /**
   * Changes whenever an answer of mayPrefixKey or mayBeKey may change: a MentionWord keeps its
   * key's answers as of it. Without it, nothing is kept.
   */
  readonly keysVersion?: number;
}

/** MentionWord.mentionBits: the key alone may start a server's key; it may be one. */
const MAY_PREFIX = 1;
const MAY_BE = 2;

/** What the ranker needs to treat a mention as membership. */
export interface MentionInput {
  /** Terms the mention's words tokenize to (still ranked normally for tools of other servers). */
  terms: readonly string[];
  /** Slots of the named servers' tools. */
  memberSlots: readonly number[];
  /** For a live slot, whether it is one of memberSlots. */
  isMember(slot: number): boolean;
  /** IDF of membership itself, log(1 + (N − m + .5) / (m + .5)) for m member tools. */
  membershipIdf: number;
  /**
   * Each named server's name written as one word, when it tokenizes to one term ("GitHub" →
   * github, beside the terms git and hub), and the terms of its name as configured (what its tools'
   * server field holds), for a one-word window: spellings the namesServer test may also weigh.
   */
  wholeNameTerms: readonly string[];
}

/** A mention resolved against one prepared query. */
export interface ServerMention extends MentionInput {
  /** Ids of `terms` that are query terms. */
  termIds: ReadonlySet<number>;
  /** IDF sum of those terms: credited to members in the coverage share. */
  idf: number;
}

/**
 * The first MAX_SCANNED_WORDS words of a query, trimmed and squashed once each. This runs on every
 * query never seen before, so it works on character codes, with no regular expression for ASCII.
 */
export function mentionWords(text: string): MentionWords {
  const split: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length && split.length < MAX_SCANNED_WORDS; i++) {
    const space = i === text.length || isSpace(text.charCodeAt(i));
    if (space && start >= 0) {
      split.push(text.slice(start, i));
      start = -1;
    } else if (!space && start < 0) {
      start = i;
    }
  }
  return mentionWordsOf(split);
}

/** mentionWords of a text already split on white space (no empty words). */
export function mentionWordsOf(split: readonly string[]): MentionWords {
  const count = Math.min(split.length, MAX_SCANNED_WORDS);
  const words: MentionWord[] = new Array(count);
  for (let i = 0; i < count; i++) words[i] = mentionWordOfRaw(split[i]!);
  return { words };
}

/** One white-space word's MentionWord, no filter asked yet. */
export function mentionWordOfRaw(raw: string): MentionWord {
  const word = mentionWordOf(raw);
  const key = mentionKeyOf(raw, word);
  return { mentionWord: word, mentionKey: key, mentionHash: keyHashOf(key), mentionLength: word.length === 0 ? -1 : key.length, mentionBits: 0, mentionAt: -1 };
}

/** One white-space word trimmed for server-name windows, as mentionWordsOf's `words` hold it. */
export function mentionWordOf(raw: string): string {
  // Most words are lowercase letters and digits already: trimmed and squashed, they are themselves.
  return isLowerAsciiWord(raw) ? raw : trimWord(raw);
}

/** That word (`word`, mentionWordOf(raw)) squashed, as mentionWordsOf's `keys` hold it. */
export function mentionKeyOf(raw: string, word: string): string {
  return isLowerAsciiWord(raw) ? raw : squashWord(word);
}

/** keyHashOf text[from, to) with A–Z lowercased (a plain word's letters: its key), read in place. */
export function keyHashOfAscii(text: string, from: number, to: number): number {
  let hash = KEY_HASH_SEED;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    hash = keyHash(hash, code >= 0x41 && code <= 0x5a ? code | 0x20 : code);
  }
  return hash;
}

/** keyHash of a whole key from KEY_HASH_SEED. */
export function keyHashOf(key: string): number {
  let hash = KEY_HASH_SEED;
  for (let i = 0; i < key.length; i++) hash = keyHash(hash, key.charCodeAt(i));
  return hash;
}

/**
 * The servers a query names: windows of 1–3 words, the longest window at each position that is
 * a server's name, windows never overlapping. A window's key is its words' keys joined (squashing
 * is per character); it is hashed as it grows, grown only while the hash may start a server's
 * key, and looked up exactly only when the hash may be one.
 * `termsOf` tokenizes the words of a window that names a server, and the key of a one-word window
 * (the server's name squashed): `wholeNameTerms` has the key's term when it is one.
 */
export function findMentions(
  query: MentionWords,
  servers: ServerKeys,
  termsOf: (words: string) => readonly string[],
): { servers: number[]; terms: string[]; wholeNameTerms: string[] } {
  const words = query.words;
  const version = servers.keysVersion;
  const found: number[] = [];
  const terms: string[] = [];
  const wholeNameTerms: string[] = [];
  for (let first = 0; first < words.length; ) {
    const head = words[first]!;
    let hash = head.mentionHash;
    let length = head.mentionLength;
    let sizes = 0;
    /** Bit `size` (1..MAX_WINDOW_WORDS) set when that window's key may be a server's, and is long enough. */
    let maybe = 0;
    if (length >= 0) {
      // The word alone: the filter's answers kept with the word, asked only when the keys changed.
      let bits = head.mentionBits;
      if (version === undefined || head.mentionAt !== version) {
        bits = (servers.mayPrefixKey(hash) ? MAY_PREFIX : 0) | (length >= MIN_SERVER_CHARS && servers.mayBeKey(hash) ? MAY_BE : 0);
        if (version !== undefined) {
          head.mentionBits = bits;
          head.mentionAt = version;
        }
      }
      if ((bits & MAY_BE) !== 0) maybe |= 1 << 1;
      sizes = 1;
      for (let size = 2; (bits & MAY_PREFIX) !== 0 && size <= MAX_WINDOW_WORDS && first + size <= words.length; size++) {
        const next = words[first + size - 1]!;
        if (next.mentionLength < 0) break;
        const key = next.mentionKey;
        for (let i = 0; i < key.length; i++) hash = keyHash(hash, key.charCodeAt(i));
        length += next.mentionLength;
        if (length >= MIN_SERVER_CHARS && servers.mayBeKey(hash)) maybe |= 1 << size;
        sizes = size;
        if (!servers.mayPrefixKey(hash)) break;
      }
    }
    let matched = 0;
    for (let size = sizes; size >= 1 && matched === 0; size--) {
      if ((maybe & (1 << size)) === 0) continue;
      const key = size === 1 ? head.mentionKey : keyOf(words, first, size);
      const id = servers.idOfKey(key);
      if (id === undefined) continue;
      if (!found.includes(id)) found.push(id);
      terms.push(...termsOf(size === 1 ? head.mentionWord : wordsOf(words, first, size)));
      // One written word ("GitHub") is the server's own spelling, however the tokenizer splits it;
      // words written apart ("mind map") are words.
      const whole = size === 1 ? termsOf(key) : [];
      if (whole.length === 1 && !wholeNameTerms.includes(whole[0]!)) wholeNameTerms.push(whole[0]!);
      // …and so is the name as configured: "github" written for a server configured "GitHub" (git, hub).
      const own = size === 1 && servers.nameOf !== undefined ? termsOf(servers.nameOf(id)) : [];
      for (const term of own) if (!wholeNameTerms.includes(term)) wholeNameTerms.push(term);
      matched = size;
    }
    first += Math.max(matched, 1);
  }
  return { servers: found, terms, wholeNameTerms };
}

/** The squashed keys of words[first, first + size) joined: the window's key. */
function keyOf(words: readonly MentionWord[], first: number, size: number): string {
  let key = "";
  for (let i = first; i < first + size; i++) key += words[i]!.mentionKey;
  return key;
}

/** The trimmed words of words[first, first + size) joined by spaces, as the window was written. */
function wordsOf(words: readonly MentionWord[], first: number, size: number): string {
  let text = words[first]!.mentionWord;
  for (let i = first + 1; i < first + size; i++) text += " " + words[i]!.mentionWord;
  return text;
}

/**
 * False when `text` squashed (document-fields.ts) is certainly no server's key: the key's hash is
 * taken over the characters in place, so a query that is not a server name costs no squash (a
 * Unicode regular expression over the whole query) and no string. Non-ASCII text answers true.
 */
export function mayBeServerKey(text: string, servers: Pick<ServerKeys, "mayBeKey">): boolean {
  let hash = KEY_HASH_SEED;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return true;
    if (isAsciiAlnum(code)) hash = keyHash(hash, code >= 0x41 && code <= 0x5a ? code | 0x20 : code);
  }
  return servers.mayBeKey(hash);
}

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || (code > 0x7f && /\s/.test(String.fromCharCode(code)));
}

function isAsciiAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** The word without leading and trailing punctuation, nor a possessive 's. */
function trimWord(word: string): string {
  let ascii = true;
  for (let i = 0; i < word.length && ascii; i++) ascii = word.charCodeAt(i) < 0x80;
  if (!ascii) return word.replace(EDGES, "").replace(POSSESSIVE, "");
  let from = 0;
  let to = word.length;
  while (from < to && !isAsciiAlnum(word.charCodeAt(from))) from++;
  while (to > from && !isAsciiAlnum(word.charCodeAt(to - 1))) to--;
  const trimmed = from === 0 && to === word.length ? word : word.slice(from, to);
  const n = trimmed.length;
  return n >= 2 && trimmed.charCodeAt(n - 2) === 0x27 && trimmed.charCodeAt(n - 1) === 0x73 ? trimmed.slice(0, n - 2) : trimmed;
}

/** squash() of one word, without a regular expression when the word is ASCII (nor a new string when it is already squashed). */
function squashWord(word: string): string {
  let upper = false;
  let other = false;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code >= 0x80) return squash(word);
    if (code >= 0x41 && code <= 0x5a) upper = true;
    else if (!isAsciiAlnum(code)) other = true;
  }
  const lower = upper ? word.toLowerCase() : word;
  if (!other) return lower;
  // The runs of letters and digits, one slice each ("e-mail": two), not a string per character.
  let out = "";
  let from = -1;
  for (let i = 0; i <= lower.length; i++) {
    if (i < lower.length && isAsciiAlnum(lower.charCodeAt(i))) {
      if (from < 0) from = i;
    } else if (from >= 0) {
      out += lower.slice(from, i);
      from = -1;
    }
  }
  return out;
}

/** How many texts MentionTerms keeps before it empties itself. */
const MENTION_TERMS_LIMIT = 4096;

/**
 * findMentions' `termsOf` remembered per text: a named server's key and configured name are asked
 * on every query that names it, and its spellings recur, each a tokenizer run (~2 µs) otherwise.
 * The terms of a text never change; the answers are shared, so read-only. Bounded: emptied when full.
 */
export class MentionTerms {
  private readonly known = new Map<string, readonly string[]>();

  constructor(private readonly tokenize: (text: string) => readonly string[]) {}

  readonly of = (text: string): readonly string[] => {
    const known = this.known.get(text);
    if (known !== undefined) return known;
    if (this.known.size >= MENTION_TERMS_LIMIT) this.known.clear();
    const terms = this.tokenize(text);
    this.known.set(text, terms);
    return terms;
  };
}

/** Membership evidence for the ranker: the mention's terms, the members, and how rare membership is. */
export function mentionInput(
  terms: readonly string[],
  memberSlots: readonly number[],
  liveCount: number,
  isMember: (slot: number) => boolean,
  wholeNameTerms: readonly string[] = [],
): MentionInput {
  const total = Math.max(liveCount, 1);
  const count = memberSlots.length;
  return { terms, memberSlots, isMember, membershipIdf: Math.log(1 + (total - count + 0.5) / (count + 0.5)), wholeNameTerms };
}
