import { FIELD_BITS, FIELD_COUNT, FIELD_ID, REVERSE_TERM, type FieldTerms } from "./fields.ts";
import { ensureFloat32, ensureInt32, ensureUint8 } from "./growable.ts";
import { HashSlots, stringHash } from "./hash-slots.ts";
import type { TermInterner } from "./tokenizer.ts";
import { actionCode } from "./opposite-actions.ts";

/**
 * A field's count of one term is kept in a byte (capped): BM25F saturates, so counts past a few
 * dozen barely move a score (the 7.1k-tool eval pool's largest is 82), and a byte a posting
 * instead of two is ~3 MiB less at 100k tools.
 */
const MAX_FREQUENCY = 0xff;
/** Dead postings are swept once they are this share of all postings (and at least COMPACT_MIN), or dead slots once at least COMPACT_MIN and as many as the live ones. */
const COMPACT_RATIO = 0.25;
const COMPACT_MIN = 4096;
const VALUE_FIELD = FIELD_ID.parameterValue;
const DESCRIPTION_FIELD = FIELD_ID.description;
/** ownNameTerms is a byte per slot: a longer name counts as this many terms. */
export const MAX_OWN_NAME_TERMS = 0xff;
/** InvertedIndex.tailOnly keeps an offset below this (and a count below 2^16) in one int32. */
const MAX_TAIL_OFFSET = 0x7fff;
/** Term ids below this fit the arena's narrow (two-byte) form. */
const NARROW_TERM_IDS = 0x10000;

/** The slots' term ids (InvertedIndex.slotTermArena): two bytes each while every id fits, four after. */
export type TermArena = Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;

function ensureArena(arena: TermArena, minLength: number): TermArena {
  if (arena.length >= minLength) return arena;
  const length = Math.max(minLength, arena.length * 2);
  const grown = arena instanceof Uint16Array ? new Uint16Array(length) : new Int32Array(length);
  grown.set(arena);
  return grown;
}
/** InvertedIndex.nameKinds bits. */
export const NAME_READER = 1;
export const NAME_REVERSE = 2;
/** nameKinds above these two bits: the side code of the action its name says (opposite-actions.ts), 0 for none. */
export const NAME_ACTION_SHIFT = 2;
/** Stemmed first words of tool names that read rather than act. */
const READING_ACTIONS: ReadonlySet<string> = new Set(["list", "get", "search", "find", "queri", "read", "fetch", "show", "describ", "retriev", "view", "count", "lookup", "brows"]);

/**
 * Term-at-a-time postings over document slots. One posting list per term holds
 * `(slot << FIELD_BITS | field, frequency)` pairs; a document's entries for a term are adjacent,
 * because a document is always appended whole. Removal marks the slot dead and a later sweep
 * drops its postings, after which the slot is reused.
 */
export class InvertedIndex implements TermInterner {
  private readonly termIds = new Map<string, number>();
  readonly terms: string[] = [];
  documentFrequency = new Int32Array(256);
  postings: Int32Array<ArrayBuffer>[] = [];
  frequencies: Uint8Array<ArrayBuffer>[] = [];
  postingLengths = new Int32Array(256);

  /** Pool name per slot; undefined for a free or dead slot. */
  readonly names: (string | undefined)[] = [];
  alive = new Uint8Array(64);
  /** Token count per slot and field, at `slot * FIELD_COUNT + field`. */
  fieldLengths = new Float32Array(64 * FIELD_COUNT);
  private postingCounts = new Int32Array(64);
  readonly fieldLengthSums = new Float64Array(FIELD_COUNT);
  /**
   * Per slot, a range of one shared arena (no object per tool for the collector to trace): the
   * slot's distinct term ids, then its description's term ids in text order, at
   * `slotTermArena[slotTermStart[slot] .. + slotTermCount[slot])`. `distinctCounts` says where the
   * first part ends. A removed slot's range is dead until the arena is compacted. Term ids take
   * two bytes each while the vocabulary fits (the 7.1k-tool eval pool has ~10k terms, however
   * many times it is copied): 13 MiB instead of 26 at 100k tools, and half the garbage of growing
   * it. The arena widens to four bytes the first time a term id does not fit.
   */
  slotTermArena: TermArena = new Uint16Array(1024);
  slotTermStart = new Int32Array(64);
  slotTermCount = new Int32Array(64);
  private arenaUsed = 0;
  private arenaDead = 0;
  distinctCounts = new Int32Array(64);
  /** How many of a slot's distinct terms (the first ones) occur in a field other than enum values. */
  outsideValueCounts = new Int32Array(64);
  /**
   * Where a slot's terms that are only in its description after the first sentence (in no other
   * field) are, `offset << 16 | count` from slotTermStart (0: none): the last of its outside-value
   * terms, ascending by id (description-tail.ts). One read tells the re-rank a slot has none.
   */
  tailOnly = new Int32Array(64);
  /**
   * Bit `slot & 31` of word `slot >>> 5` set when tailOnly[slot] is not 0: a slot-count / 8 bytes
   * the re-rank asks first, so a candidate without a tail costs no read of a scattered 4-byte entry.
   */
  hasTail = new Int32Array(2);
  /**
   * 1 for a term some tool has (or had: never cleared, so at worst a wasted look) only in its
   * description's tail: a query none of whose terms is one skips the re-rank's tail look-ups.
   */
  tailTerms = new Uint8Array(256);
  /**
   * What a slot's name says, NAME_* bits in one byte (the re-rank reads both for each candidate,
   * so one array, one cache line): NAME_REVERSE, its name says "reverse" (reverse geocoding,
   * reverse lookup), a direction the query must ask for; NAME_READER, its name begins with a
   * reading action (list, get, search…), so its enum values are filters ("state: open"), which
   * say what it can narrow to, not what it does.
   */
  nameKinds = new Uint8Array(64);
  /**
   * Per slot, how many distinct terms its name has that its server's name does not (`slack_get_users`
   * → get, user: 2), at most MAX_OWN_NAME_TERMS: how much of its own name a request can say.
   */
  ownNameTerms = new Uint8Array(64);
  slotCount = 0;
  liveCount = 0;
  /** Live (term, slot) pairs: the sum of documentFrequency, so the entries of all terms' impacts. */
  termSlotPairs = 0;
  /** Bumped on every change, so derived per-slot data knows when to refresh. */
  version = 0;
  /** Per term id: the version whose change last touched its postings or their slots (impact-maker.ts redoes only those). */
  termChangedAt = new Int32Array(256);

  /** Live slots by a hash of their name (hash-slots.ts: no Map of 100k names to keep and trace). */
  private readonly slotByName = new HashSlots((slot) => this.names[slot]!);
  private freeSlots: number[] = [];
  private deadSlots: number[] = [];
  private totalPostings = 0;
  /** Scratch for add(): which add last saw a term, and where in that add's distinct list. */
  private addCount = 0;
  private seenAt = new Int32Array(256);
  /** Which add last saw a term in its description's first sentence. */
  private headAt = new Int32Array(256);
  private localIndex = new Int32Array(256);
  private distinctScratch = new Int32Array(64);
  private countScratch = new Int32Array(64 * FIELD_COUNT);
  private orderScratch = new Int32Array(64);
  private deadPostings = 0;

  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }

  slotOf(name: string): number | undefined {
    const hash = stringHash(name);
    for (let at = this.slotByName.find(hash); at >= 0; at = this.slotByName.find(hash, at)) {
      const slot = this.slotByName.valueAt(at);
      if (this.names[slot] === name) return slot;
    }
    return this.slotByName.spilled(hash, name)[0];
  }

  /** Pool names of the live slots, in slot order. */
  *liveNames(): IterableIterator<string> {
    for (let slot = 0; slot < this.slotCount; slot++) if (this.alive[slot] === 1) yield this.names[slot]!;
  }

  /**
   * Indexes a document whose fields were tokenized against this index's dictionary (intern);
   * `descriptionHead` of its description's terms are its first sentence (default: all of them).
   */
  add(name: string, fields: FieldTerms, descriptionHead = fields[FIELD_ID.description]!.length): number {
    const slot = this.takeSlot();
    const stamp = ++this.addCount;
    let distinctCount = 0;
    const description = fields[FIELD_ID.description]!;
    for (let field = 0; field < FIELD_COUNT; field++) {
      const tokens = fields[field]!;
      this.fieldLengths[slot * FIELD_COUNT + field] = tokens.length;
      this.fieldLengthSums[field] = this.fieldLengthSums[field]! + tokens.length;
      for (let position = 0; position < tokens.length; position++) {
        const id = tokens[position]!;
        if (field === DESCRIPTION_FIELD && position < descriptionHead) this.headAt[id] = stamp;
        if (this.seenAt[id] !== stamp) {
          this.seenAt[id] = stamp;
          this.localIndex[id] = distinctCount;
          this.distinctScratch = ensureInt32(this.distinctScratch, distinctCount + 1);
          this.countScratch = ensureInt32(this.countScratch, (distinctCount + 1) * FIELD_COUNT);
          for (let at = distinctCount * FIELD_COUNT; at < (distinctCount + 1) * FIELD_COUNT; at++) this.countScratch[at] = 0;
          this.distinctScratch[distinctCount++] = id;
        }
        this.countScratch[this.localIndex[id]! * FIELD_COUNT + field]!++;
      }
    }
    // Distinct terms found outside enum values come first, so the coverage share can tell a tool
    // that does what the query says from one that merely accepts the word as a filter value.
    const start = this.arenaUsed;
    const total = distinctCount + description.length;
    if (this.terms.length > NARROW_TERM_IDS && this.slotTermArena instanceof Uint16Array) this.slotTermArena = Int32Array.from(this.slotTermArena);
    this.slotTermArena = ensureArena(this.slotTermArena, start + total);
    this.arenaUsed += total;
    const terms = this.slotTermArena;
    const order = (this.orderScratch = ensureInt32(this.orderScratch, distinctCount));
    let front = 0;
    let back = distinctCount;
    let tailOnly = 0;
    for (let local = 0; local < distinctCount; local++) {
      let outside = false;
      for (let field = 0; field < FIELD_COUNT && !outside; field++) {
        outside = field !== VALUE_FIELD && this.countScratch[local * FIELD_COUNT + field]! > 0;
      }
      if (!outside) order[--back] = local;
      else if (this.onlyInTail(local, stamp)) tailOnly++;
      else order[front++] = local;
    }
    // Tail-only terms go last among the outside ones, ascending by id, so a query term is found by a binary search.
    const tailStart = front;
    for (let local = 0; local < distinctCount && front < back; local++) {
      if (this.countScratch[local * FIELD_COUNT + DESCRIPTION_FIELD]! > 0 && this.onlyInTail(local, stamp)) order[front++] = local;
    }
    for (let i = 0; i < distinctCount; i++) terms[start + i] = this.distinctScratch[order[i]!]!;
    for (let i = 0; i < description.length; i++) terms[start + distinctCount + i] = description[i]!;
    let appended = 0;
    let ownName = 0;
    for (let i = 0; i < distinctCount; i++) {
      const local = order[i]!;
      const id = terms[start + i]!;
      this.documentFrequency[id]!++;
      this.termChangedAt[id] = this.version + 1;
      if (this.countScratch[local * FIELD_COUNT + FIELD_ID.name]! > 0 && this.countScratch[local * FIELD_COUNT + FIELD_ID.server] === 0) ownName++;
      for (let field = 0; field < FIELD_COUNT; field++) {
        const count = this.countScratch[local * FIELD_COUNT + field]!;
        if (count === 0) continue;
        this.appendPosting(id, (slot << FIELD_BITS) | field, count);
        appended++;
      }
    }
    // Sorted only now: the loop above pairs each term with its `order` entry by position.
    if (tailOnly > 1) terms.subarray(start + tailStart, start + front).sort();
    for (let i = start + tailStart; i < start + front; i++) this.tailTerms[terms[i]!] = 1;
    this.postingCounts[slot] = appended;
    this.termSlotPairs += distinctCount;
    this.slotTermStart[slot] = start;
    this.slotTermCount[slot] = total;
    this.distinctCounts[slot] = distinctCount;
    this.outsideValueCounts[slot] = front;
    // A slot's distinct terms are far fewer than 2^16 (FIELD_TEXT_LIMIT characters a field); capped anyway.
    this.tailOnly[slot] = tailOnly === 0 || tailStart > MAX_TAIL_OFFSET ? 0 : (tailStart << 16) | Math.min(tailOnly, 0xffff);
    this.markTail(slot);
    this.ownNameTerms[slot] = Math.min(ownName, MAX_OWN_NAME_TERMS);
    const first = fields[FIELD_ID.name]!.length > 0 ? this.terms[fields[FIELD_ID.name]![0]!]! : "";
    const reverse = this.termIds.get(REVERSE_TERM);
    this.nameKinds[slot] =
      (READING_ACTIONS.has(first) ? NAME_READER : 0) |
      (reverse !== undefined && fields[FIELD_ID.name]!.includes(reverse) ? NAME_REVERSE : 0) |
      (this.ownActionCode(fields) << NAME_ACTION_SHIFT);
    this.names[slot] = name;
    this.alive[slot] = 1;
    this.slotByName.add(stringHash(name), slot);
    this.liveCount++;
    this.version++;
    return slot;
  }

  private markTail(slot: number): void {
    const word = slot >>> 5;
    const bit = 1 << (slot & 31);
    this.hasTail[word] = this.tailOnly[slot] !== 0 ? this.hasTail[word]! | bit : this.hasTail[word]! & ~bit;
  }

  /** Whether the add's distinct term `local` is in the description only, and not in its first sentence. */
  private onlyInTail(local: number, stamp: number): boolean {
    const counts = this.countScratch;
    const at = local * FIELD_COUNT;
    if (counts[at + DESCRIPTION_FIELD] === 0 || this.headAt[this.distinctScratch[local]!] === stamp) return false;
    for (let field = 0; field < FIELD_COUNT; field++) if (field !== DESCRIPTION_FIELD && counts[at + field]! > 0) return false;
    return true;
  }

  /** The side code of the first action word of a name's own terms (not its server's words: `Reading_Home_APIs__…`), 0 for none. */
  private ownActionCode(fields: FieldTerms): number {
    const server = fields[FIELD_ID.server]!;
    for (const id of fields[FIELD_ID.name]!) {
      const code = server.includes(id) ? 0 : actionCode(this.terms[id]!);
      if (code !== 0) return code;
    }
    return 0;
  }

  remove(slot: number): void {
    const name = this.names[slot];
    if (name === undefined || this.alive[slot] === 0) return;
    const start = this.slotTermStart[slot]!;
    for (let i = 0; i < this.distinctCounts[slot]!; i++) {
      const id = this.slotTermArena[start + i]!;
      this.documentFrequency[id]!--;
      this.termChangedAt[id] = this.version + 1;
    }
    this.termSlotPairs -= this.distinctCounts[slot]!;
    for (let field = 0; field < FIELD_COUNT; field++) {
      this.fieldLengthSums[field] = this.fieldLengthSums[field]! - this.fieldLengths[slot * FIELD_COUNT + field]!;
      this.fieldLengths[slot * FIELD_COUNT + field] = 0;
    }
    this.deadPostings += this.postingCounts[slot]!;
    this.postingCounts[slot] = 0;
    this.arenaDead += this.slotTermCount[slot]!;
    this.slotTermCount[slot] = 0;
    this.distinctCounts[slot] = 0;
    this.outsideValueCounts[slot] = 0;
    this.tailOnly[slot] = 0;
    this.markTail(slot);
    this.slotByName.remove(stringHash(name), slot);
    this.names[slot] = undefined;
    this.alive[slot] = 0;
    this.deadSlots.push(slot);
    this.liveCount--;
    this.version++;
    // Dead slots are swept too once they outnumber the live ones: a tool of no postings (server "x",
    // name "the") adds none, and one of a posting or two beside a large pool hardly any.
    const deadSlots = this.deadSlots.length;
    if ((this.deadPostings > COMPACT_MIN && this.deadPostings > this.totalPostings * COMPACT_RATIO) || (deadSlots >= COMPACT_MIN && deadSlots >= this.liveCount)) {
      this.compact();
    }
    if (this.arenaDead > COMPACT_MIN && this.arenaDead > this.arenaUsed * COMPACT_RATIO) this.compactArena();
  }

  /** Moves the live slots' term ranges together (in slot order) into an arena sized for them. */
  private compactArena(): void {
    const length = Math.max(1024, Math.ceil((this.arenaUsed - this.arenaDead) * 1.25));
    const arena = this.slotTermArena instanceof Uint16Array ? new Uint16Array(length) : new Int32Array(length);
    let used = 0;
    for (let slot = 0; slot < this.slotCount; slot++) {
      if (this.alive[slot] === 0) continue;
      const start = this.slotTermStart[slot]!;
      const count = this.slotTermCount[slot]!;
      arena.set(this.slotTermArena.subarray(start, start + count), used);
      this.slotTermStart[slot] = used;
      used += count;
    }
    this.slotTermArena = arena;
    this.arenaUsed = used;
    this.arenaDead = 0;
  }

  /** Drops postings of removed slots and makes those slots reusable. */
  compact(): void {
    for (let id = 0; id < this.terms.length; id++) {
      const postings = this.postings[id]!;
      const frequencies = this.frequencies[id]!;
      const length = this.postingLengths[id]!;
      let kept = 0;
      for (let i = 0; i < length; i++) {
        if (this.alive[postings[i]! >>> FIELD_BITS] === 0) continue;
        postings[kept] = postings[i]!;
        frequencies[kept++] = frequencies[i]!;
      }
      this.postingLengths[id] = kept;
    }
    this.totalPostings -= this.deadPostings;
    this.deadPostings = 0;
    this.freeSlots.push(...this.deadSlots);
    this.deadSlots = [];
  }

  private takeSlot(): number {
    const reused = this.freeSlots.pop();
    if (reused !== undefined) return reused;
    const slot = this.slotCount++;
    this.alive = ensureUint8(this.alive, this.slotCount);
    this.postingCounts = ensureInt32(this.postingCounts, this.slotCount);
    this.distinctCounts = ensureInt32(this.distinctCounts, this.slotCount);
    this.slotTermStart = ensureInt32(this.slotTermStart, this.slotCount);
    this.slotTermCount = ensureInt32(this.slotTermCount, this.slotCount);
    this.outsideValueCounts = ensureInt32(this.outsideValueCounts, this.slotCount);
    this.tailOnly = ensureInt32(this.tailOnly, this.slotCount);
    this.hasTail = ensureInt32(this.hasTail, (this.slotCount + 31) >>> 5);
    this.nameKinds = ensureUint8(this.nameKinds, this.slotCount);
    this.ownNameTerms = ensureUint8(this.ownNameTerms, this.slotCount);
    this.fieldLengths = ensureFloat32(this.fieldLengths, this.slotCount * FIELD_COUNT);
    return slot;
  }

  /** The id of a term, added to the dictionary when new. */
  intern(term: string): number {
    const known = this.termIds.get(term);
    if (known !== undefined) return known;
    const id = this.terms.length;
    this.terms.push(term);
    this.termIds.set(term, id);
    this.postings.push(new Int32Array(4));
    this.frequencies.push(new Uint8Array(4));
    this.documentFrequency = ensureInt32(this.documentFrequency, id + 1);
    this.postingLengths = ensureInt32(this.postingLengths, id + 1);
    this.termChangedAt = ensureInt32(this.termChangedAt, id + 1);
    this.seenAt = ensureInt32(this.seenAt, id + 1);
    this.headAt = ensureInt32(this.headAt, id + 1);
    this.tailTerms = ensureUint8(this.tailTerms, id + 1);
    this.localIndex = ensureInt32(this.localIndex, id + 1);
    return id;
  }

  private appendPosting(id: number, packed: number, frequency: number): void {
    const length = this.postingLengths[id]!;
    if (length === this.postings[id]!.length) {
      this.postings[id] = ensureInt32(this.postings[id]!, length + 1);
      this.frequencies[id] = ensureUint8(this.frequencies[id]!, length + 1);
    }
    this.postings[id]![length] = packed;
    this.frequencies[id]![length] = Math.min(frequency, MAX_FREQUENCY);
    this.postingLengths[id] = length + 1;
    this.totalPostings++;
  }
}
