import { stemmer } from "stemmer";
import { STOP_WORDS } from "../../src/search/stop-words.ts";
import type { EvalTool } from "./eval-data.ts";

/**
 * The comparison peer: a careful, plain BM25F written the way a fast library would be, and
 * nothing else (no re-rank, no query language). Fields: name (split on case, `_`, `.`, `-`),
 * description, parameter names, parameter descriptions, server. Per (term, tool) the field
 * frequencies are length-normalised, weighted, summed and saturated once at build time (two
 * passes over the tools, so no per-tool term maps are held at once), so a
 * query is one pass over each term's postings (typed arrays) into a reused score array, then a
 * bounded top-k selection. Stems are cached. It shares no code with src/search but the stop-word
 * list, so it cannot inherit the engine's costs.
 */
const FIELDS = 5;
const WEIGHTS = [3, 2, 1, 0.5, 0.5];
const B = [0.5, 0.75, 0.5, 0.75, 0.3];
const K1 = 1.2;
const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g;

export class Bm25fPeer {
  private readonly termIds = new Map<string, number>();
  private readonly stems = new Map<string, string | null>();
  private readonly names: string[] = [];
  /** Per term: tool ids and precomputed saturated weights (idf folded in at query time). */
  private docs: Int32Array[] = [];
  private impacts: Float32Array[] = [];
  private idf = new Float32Array(0);
  private scores = new Float32Array(0);
  private touched = new Int32Array(0);
  private readonly topSlots = new Int32Array(128);
  private readonly topScores = new Float32Array(128);

  constructor(tools: readonly EvalTool[]) {
    // Pass 1: the dictionary, per-field lengths and averages, document frequencies.
    const lengths = new Float32Array(tools.length * FIELDS);
    const sums = new Float64Array(FIELDS);
    let frequency: Int32Array<ArrayBuffer> = new Int32Array(1024);
    let lastDoc: Int32Array<ArrayBuffer> = new Int32Array(1024).fill(-1);
    for (let doc = 0; doc < tools.length; doc++) {
      const texts = fieldsOf(tools[doc]!);
      for (let field = 0; field < FIELDS; field++) {
        const terms = this.terms(texts[field]!, true);
        lengths[doc * FIELDS + field] = terms.length;
        sums[field] = sums[field]! + terms.length;
        if (this.termIds.size > frequency.length) {
          frequency = grow(frequency, this.termIds.size * 2, 0);
          lastDoc = grow(lastDoc, this.termIds.size * 2, -1);
        }
        for (const id of terms) {
          if (lastDoc[id] === doc) continue;
          lastDoc[id] = doc;
          frequency[id]!++;
        }
      }
      this.names.push(tools[doc]!.name);
    }
    const termCount = this.termIds.size;
    const averages = Array.from(sums, (sum) => Math.max(sum / Math.max(tools.length, 1), 1));
    this.docs = Array.from(frequency.subarray(0, termCount), (n) => new Int32Array(n));
    this.impacts = Array.from(frequency.subarray(0, termCount), (n) => new Float32Array(n));
    // Pass 2: tokenize again and write each (term, tool) impact in place; scratch is per tool.
    const filled = new Int32Array(termCount);
    const pseudo = new Float32Array(termCount);
    const touched: number[] = [];
    for (let doc = 0; doc < tools.length; doc++) {
      const texts = fieldsOf(tools[doc]!);
      for (let field = 0; field < FIELDS; field++) {
        const norm = 1 - B[field]! + (B[field]! * lengths[doc * FIELDS + field]!) / averages[field]!;
        const weight = WEIGHTS[field]! / norm;
        for (const id of this.terms(texts[field]!, false)) {
          if (pseudo[id] === 0) touched.push(id);
          pseudo[id] = pseudo[id]! + weight;
        }
      }
      for (const id of touched) {
        const value = pseudo[id]!;
        const at = filled[id]!++;
        this.docs[id]![at] = doc;
        this.impacts[id]![at] = (value * (K1 + 1)) / (value + K1);
        pseudo[id] = 0;
      }
      touched.length = 0;
    }
    this.idf = Float32Array.from(frequency.subarray(0, termCount), (n) => Math.log(1 + (tools.length - n + 0.5) / (n + 0.5)));
    this.scores = new Float32Array(tools.length);
    this.touched = new Int32Array(tools.length);
  }

  query(text: string, limit: number): string[] {
    const { scores, touched } = this;
    let count = 0;
    const seen = new Set<number>();
    for (const id of this.terms(text, false)) {
      if (seen.has(id)) continue;
      seen.add(id);
      const idf = this.idf[id]!;
      const docs = this.docs[id]!;
      const impacts = this.impacts[id]!;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        if (scores[doc] === 0) touched[count++] = doc;
        scores[doc] = scores[doc]! + idf * impacts[i]!;
      }
    }
    const k = Math.min(limit, this.topSlots.length);
    let size = 0;
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[doc]!;
      scores[doc] = 0;
      if (size === k && score <= this.topScores[k - 1]!) continue;
      let at = size < k ? size++ : k - 1;
      while (at > 0 && this.topScores[at - 1]! < score) {
        this.topScores[at] = this.topScores[at - 1]!;
        this.topSlots[at] = this.topSlots[at - 1]!;
        at--;
      }
      this.topScores[at] = score;
      this.topSlots[at] = doc;
    }
    const out: string[] = [];
    for (let i = 0; i < size; i++) out.push(this.names[this.topSlots[i]!]!);
    return out;
  }

  /** Term ids of a text; new terms are added only while indexing. */
  private terms(text: string, add: boolean): number[] {
    const out: number[] = [];
    for (const match of text.matchAll(WORD)) {
      const lower = match[0].toLowerCase();
      let stem = this.stems.get(lower);
      if (stem === undefined) {
        stem = lower.length < 2 && lower.charCodeAt(0) < 0x80 ? null : STOP_WORDS.has(lower) ? null : stemmer(lower);
        this.stems.set(lower, stem);
      }
      if (stem === null) continue;
      let id = this.termIds.get(stem);
      if (id === undefined) {
        if (!add) continue;
        id = this.termIds.size;
        this.termIds.set(stem, id);
      }
      out.push(id);
    }
    return out;
  }
}

function grow(array: Int32Array, size: number, fill: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(size).fill(fill);
  bigger.set(array);
  return bigger;
}

/** name, description, parameter names, parameter descriptions, server (+ its description). */
function fieldsOf(tool: EvalTool): string[] {
  const schema = tool.input_schema as { properties?: Record<string, { description?: unknown }> } | undefined;
  const properties = Object.entries(schema?.properties ?? {});
  return [
    tool.name,
    tool.description ?? "",
    properties.map(([name]) => name).join(" "),
    properties.map(([, value]) => (typeof value?.description === "string" ? value.description : "")).join(" "),
    `${tool.server ?? ""} ${tool.server_description ?? ""}`,
  ];
}
