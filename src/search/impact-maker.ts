import { FIELD_BITS, FIELD_COUNT, FIELD_ID, FIELDS } from "./fields.ts";
import { IMPACT_ENTRY_BYTES, ImpactCache } from "./impact-cache.ts";
import { IMPACT_DESCRIPTION, IMPACT_FLAG_BITS, IMPACT_FLAG_MASK, IMPACT_OUTSIDE_VALUE, IMPACT_OWN_NAME, IMPACT_PARAMETER_NAME, type Impacts } from "./impacts.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import type { RankingOptions } from "./ranking-options.ts";

const FIELD_MASK = (1 << FIELD_BITS) - 1;
/** impacts()'s mark, above the IMPACT_* bits, of a term found in the server's name. */
const IN_SERVER = 1 << IMPACT_FLAG_BITS;
/** precompute() works every term's impacts out only when they fit in this fraction of the cache's budget. */
const SWEEP_SHARE = 4;

/** Twice the room for an impact list that outgrew its arrays (not expected: see impacts()). */
function grown(impacts: Impacts, count: number): Impacts {
  const entries = new Int32Array(Math.max(4, count * 2));
  const values = new Float32Array(entries.length);
  entries.set(impacts.entries.subarray(0, count));
  values.set(impacts.values.subarray(0, count));
  return { entries, values, length: 0, version: -1, sorted: false, used: impacts.used };
}

function fieldFlags(field: number): number {
  return (
    (field !== FIELD_ID.parameterValue ? IMPACT_OUTSIDE_VALUE : 0) |
    (field === FIELD_ID.description ? IMPACT_DESCRIPTION : 0) |
    (field === FIELD_ID.parameterName ? IMPACT_PARAMETER_NAME : 0) |
    (field === FIELD_ID.name ? IMPACT_OWN_NAME : 0)
  );
}

/**
 * Works out and caches each term's impacts (impacts.ts) for the first stage (bm25f-scorer.ts) and
 * the re-rank's facts: per (term, live slot), the BM25F pseudo-frequency over the slot's fields
 * (each count length-normalised and weighted), saturated once with k1.
 */
export class ImpactMaker {
  /** Per term id: its impacts, valid while their version equals the index version (impact-cache.ts). */
  readonly cache: ImpactCache;
  /**
   * Per field: weight, length normalisation b, average length; a posting's norm is worked out
   * from these and the slot's field length when its term's impacts are (no per-slot norm table:
   * 6 MiB at 100k tools, and impacts are cached, so the division is paid once per posting).
   */
  private readonly fieldWeights = new Float64Array(FIELD_COUNT);
  private readonly fieldBs = new Float64Array(FIELD_COUNT);
  private readonly fieldAverages = new Float64Array(FIELD_COUNT);
  private normVersion = -1;
  /** Per field: its IMPACT_* bits, and IN_SERVER for the server's name. */
  private readonly fieldBits = Int32Array.from({ length: FIELD_COUNT }, (_, field) => fieldFlags(field) | (field === FIELD_ID.server ? IN_SERVER : 0));
  /** Impact lists worked out from postings so far (a stale list marked current again is not one). */
  workedOut = 0;
  /** The index version whose field averages differ from the ones before (impacts older than it are stale). */
  private normsChangedAt = 0;
  /** The index version precompute() swept in full. */
  private sweptVersion = -1;
  /** The index version a sweep is under way for, and the term id it goes on from. */
  private sweepingVersion = -1;
  private sweepNext = 0;
  /** The sweep's choice of terms (frequentTerms()): every term of at least `sweepTop` entries, and fewer while `sweepRoom` lasts. */
  private sweepFloor = 1;
  private sweepTop = 1;
  private sweepRoom = 0;

  constructor(
    private readonly options: RankingOptions,
    impactBudgetBytes?: number,
  ) {
    this.cache = new ImpactCache(impactBudgetBytes);
  }

  /**
   * A term's saturated BM25F weight per live slot, pseudo / (k1 + pseudo), with the kinds of field
   * it occurs in. It depends on the index alone (not the query), so it is computed once per term
   * and index version, then reused (by the first stage and by the re-rank's candidate facts).
   */
  impacts(index: InvertedIndex, id: number): Impacts {
    const cached = this.cache.get(id);
    if (cached !== undefined && cached.version === index.version) return cached;
    if (this.normVersion !== index.version) this.refreshNorms(index);
    if (cached !== undefined && this.stillValid(index, id, cached)) return cached;
    return this.workOut(index, id, cached);
  }

  /** A term's impacts worked out from its postings (refreshing `cached` in place when it has room), and cached. */
  private workOut(index: InvertedIndex, id: number, cached: Impacts | undefined): Impacts {
    const postings = index.postings[id]!;
    const frequencies = index.frequencies[id]!;
    const length = index.postingLengths[id]!;
    // One entry per live slot that has the term (its postings are adjacent): at most its document
    // frequency, so the arrays are made at that length and written in place, with no scratch copy.
    // A stale entry is refreshed in place when it has room (an index change makes every term stale
    // at once).
    const capacity = index.documentFrequency[id]!;
    let impacts: Impacts =
      cached !== undefined && cached.entries.length >= capacity
        ? cached
        : { entries: new Int32Array(capacity), values: new Float32Array(capacity), length: 0, version: -1, sorted: false, used: 0 };
    let { entries, values } = impacts;
    const { alive, fieldLengths } = index;
    const { fieldWeights, fieldBs, fieldAverages, fieldBits } = this;
    const k1 = this.options.k1;
    let count = 0;
    let current = -1;
    let pseudo = 0;
    let flags = 0;
    let sorted = true;
    for (let i = 0; i <= length; i++) {
      let slot = -1;
      let field = 0;
      let norm = 0;
      if (i < length) {
        const packed = postings[i]!;
        slot = packed >>> FIELD_BITS;
        field = packed & FIELD_MASK;
        // norm() below, inline (this loop is every term's first use): the same float32 value, 0 for a dead slot.
        if (alive[slot] === 1) {
          const average = fieldAverages[field]!;
          const b = fieldBs[field]!;
          norm = average > 0 ? Math.fround(fieldWeights[field]! / (1 - b + (b * fieldLengths[slot * FIELD_COUNT + field]!) / average)) : Math.fround(fieldWeights[field]!);
        }
        if (slot === current) {
          pseudo += norm * frequencies[i]!;
          flags |= fieldBits[field]!;
          continue;
        }
      }
      if (pseudo > 0) {
        if (count === entries.length) {
          impacts = grown(impacts, count);
          ({ entries, values } = impacts);
        }
        // A word of the server's own name is not what the tool's name adds (slack in slack_get_users).
        entries[count] = (current << IMPACT_FLAG_BITS) | ((flags & IN_SERVER) !== 0 ? flags & IMPACT_FLAG_MASK & ~IMPACT_OWN_NAME : flags & IMPACT_FLAG_MASK);
        values[count] = pseudo / (k1 + pseudo);
        if (count > 0 && current < entries[count - 1]! >>> IMPACT_FLAG_BITS) sorted = false;
        count++;
      }
      if (slot < 0) break;
      current = slot;
      pseudo = norm * frequencies[i]!;
      flags = fieldBits[field]!;
    }
    // Exactly `count` long (impacts.ts): the first stage's loops run to the arrays' own length, which
    // lets optimised code drop their bounds checks. Shorter when a live slot's fields all weigh 0, or
    // when a cached entry refreshed in place had room to spare (tools with the term left). A new
    // object, not the cached one cut: the cache counts the bytes of the object it held (ImpactCache.set).
    if (count < entries.length) {
      impacts = { entries: entries.slice(0, count), values: values.slice(0, count), length: 0, version: -1, sorted: false, used: impacts.used };
    }
    impacts.length = count;
    impacts.version = index.version;
    this.workedOut++;
    impacts.sorted = sorted;
    this.cache.set(id, impacts);
    return impacts;
  }

  /**
   * Terms' impacts ahead of use, as a peer computes its impacts at build: a query then reads
   * impacts and works none out (a term's first use costs more than reading its impacts again).
   * Bounded, for a caller that gives the thread back between calls (core/search-sync.ts does, after
   * each catch-up): one call works out the terms not yet current for this index version, in term
   * id order from where the last call stopped, until about `maxEntries` entries (at least one
   * term; terms a query worked out already are passed over, and a term no change touched is
   * only marked current). True once every chosen term is current. Chosen: every term when all
   * impacts fit in 1/SWEEP_SHARE of the cache's budget (≤ ~20k tools), else the most frequent
   * terms within that share (frequentTerms(): at 100k tools the lists a first query would pay
   * most for). An index change starts the sweep again from the first term.
   */
  precompute(index: InvertedIndex, maxEntries: number): boolean {
    const version = index.version;
    if (this.sweptVersion === version) return true;
    if (this.sweepingVersion !== version) {
      this.sweepingVersion = version;
      this.sweepNext = 0;
      this.frequentTerms(index);
    }
    if (this.normVersion !== version) this.refreshNorms(index);
    const frequency = index.documentFrequency;
    const terms = index.terms.length;
    const { sweepFloor, sweepTop } = this;
    let worked = 0;
    let id = this.sweepNext;
    for (; id < terms && worked < maxEntries; id++) {
      const count = frequency[id]!;
      if (count < sweepFloor || count === 0) continue;
      if (count < sweepTop) {
        if (count > this.sweepRoom) continue;
        this.sweepRoom -= count;
      }
      const cached = this.cache.peek(id);
      if (cached !== undefined && cached.version === version) continue;
      if (cached !== undefined && this.stillValid(index, id, cached)) {
        worked++;
        continue;
      }
      this.impacts(index, id);
      worked += count;
    }
    this.sweepNext = id;
    if (id < terms) return false;
    this.sweptVersion = version;
    return true;
  }

  /**
   * Which terms a sweep works out: all of them when their entries fit in 1/SWEEP_SHARE of the
   * budget; else, by powers of two of document frequency from the top, every term of the classes
   * that fit whole, and of the first class that does not, as many (in id order) as the rest holds.
   * One pass over the terms, no sort (a 100k pool's vocabulary in one slice).
   */
  private frequentTerms(index: InvertedIndex): void {
    const room = Math.floor(this.cache.budgetBytes / SWEEP_SHARE / IMPACT_ENTRY_BYTES);
    this.sweepFloor = 1;
    this.sweepTop = 1;
    this.sweepRoom = 0;
    if (index.termSlotPairs <= room) return;
    const sums = new Float64Array(32);
    const frequency = index.documentFrequency;
    for (let id = 0; id < index.terms.length; id++) {
      const count = frequency[id]!;
      if (count > 0) sums[31 - Math.clz32(count)] = sums[31 - Math.clz32(count)]! + count;
    }
    let taken = 0;
    for (let power = 31; power >= 0; power--) {
      if (taken + sums[power]! > room) {
        this.sweepFloor = 2 ** power;
        this.sweepTop = 2 ** (power + 1);
        this.sweepRoom = room - taken;
        return;
      }
      taken += sums[power]!;
    }
  }

  /**
   * Whether cached impacts of an older version still hold: no change touched the term's postings
   * or their slots since (InvertedIndex.termChangedAt), and the field averages are the ones they
   * were worked out with (a same-length replace leaves them so). If so they are marked current.
   * The norms must be refreshed for this version first.
   */
  private stillValid(index: InvertedIndex, id: number, cached: Impacts): boolean {
    const made = cached.version;
    if (made < this.normsChangedAt || made < index.termChangedAt[id]!) return false;
    cached.version = index.version;
    return true;
  }

  /**
   * impacts(), without marking the term as just used: for the re-rank's second read of the query's
   * terms (the first stage marked them). The recency list is a few scattered writes per call,
   * and which term is dropped first never changes a value.
   */
  impactsAgain(index: InvertedIndex, id: number): Impacts {
    const cached = this.cache.peek(id);
    return cached !== undefined && cached.version === index.version ? cached : this.impacts(index, id);
  }

  /**
   * A posting's field weight / (1 − b + b · length / average length), rounded to float32 as the
   * per-slot table it replaces held it (rankings stay the same to the bit); zero for a dead slot.
   */
  norm(index: InvertedIndex, packed: number): number {
    const slot = packed >>> FIELD_BITS;
    if (index.alive[slot] !== 1) return 0;
    const field = packed & FIELD_MASK;
    const average = this.fieldAverages[field]!;
    const weight = this.fieldWeights[field]!;
    if (!(average > 0)) return Math.fround(weight);
    const b = this.fieldBs[field]!;
    return Math.fround(weight / (1 - b + (b * index.fieldLengths[slot * FIELD_COUNT + field]!) / average));
  }

  /** The per-field constants of norm(), for the index as it is now. */
  private refreshNorms(index: InvertedIndex): void {
    let changed = false;
    for (let field = 0; field < FIELD_COUNT; field++) {
      const name = FIELDS[field]!;
      const average = index.liveCount > 0 ? index.fieldLengthSums[field]! / index.liveCount : 0;
      changed ||= this.fieldWeights[field] !== this.options.weights[name] || this.fieldBs[field] !== this.options.lengthNormalization[name] || this.fieldAverages[field] !== average;
      this.fieldWeights[field] = this.options.weights[name];
      this.fieldBs[field] = this.options.lengthNormalization[name];
      this.fieldAverages[field] = average;
    }
    if (changed) this.normsChangedAt = index.version;
    this.normVersion = index.version;
  }
}
