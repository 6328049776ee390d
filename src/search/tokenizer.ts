import { stemmer } from "stemmer";
import { STOP_WORDS } from "./stop-words.ts";

const CJK_SCRIPTS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
/** A run of CJK characters, or a run of other letters, digits and marks. */
const RUN = new RegExp(`[${CJK_SCRIPTS}]+|[[\\p{L}\\p{N}\\p{M}]--[${CJK_SCRIPTS}]]+`, "gv");
const CJK_START = new RegExp(`^[${CJK_SCRIPTS}]`, "v");
const ASCII_WORD = /^[a-z]+$/;
const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING_MARKS = /\p{Mn}/gu;
/** lower→Upper ("getUser") and Upper→Upper+lower ("HTMLParser") boundaries. */
const CAMEL_LOWER_UPPER = /([\p{Ll}\p{N}])(\p{Lu})/gu;
const CAMEL_UPPER_WORD = /(\p{Lu})(\p{Lu}\p{Ll})/gu;

/** The stem cache is dropped wholesale past this size, so adversarial vocabularies cannot grow it forever. */
const STEM_CACHE_LIMIT = 200_000;

/** True when a term came from CJK text (an overlapping bigram, or a lone CJK character). */
export function isCjkTerm(term: string): boolean {
  return CJK_START.test(term);
}

/**
 * Turns text into index terms: CamelCase, snake_case, kebab-case, dotted and `mcp__server__tool`
 * names split into words; lowercased, diacritics folded, English stop words dropped, ASCII words
 * Porter-stemmed; CJK runs become overlapping bigrams. Positions are the indexes of the result.
 */
export class Tokenizer {
  private readonly stems = new Map<string, string>();

  tokenize(text: string, out: string[] = []): string[] {
    for (const match of text.matchAll(RUN)) {
      const run = match[0];
      if (isCjkTerm(run)) this.pushBigrams(run, out);
      else this.pushWords(run, out);
    }
    return out;
  }

  /** One word as it would be indexed, or undefined when it is a stop word or too short. */
  normalizeWord(word: string): string | undefined {
    const lower = word.toLowerCase();
    if (lower.length < 2 || STOP_WORDS.has(lower)) return undefined;
    return this.stem(lower);
  }

  private pushWords(run: string, out: string[]): void {
    const folded = NON_ASCII.test(run) ? run.normalize("NFD").replace(COMBINING_MARKS, "") : run;
    const spaced = folded.replace(CAMEL_LOWER_UPPER, "$1 $2").replace(CAMEL_UPPER_WORD, "$1 $2");
    if (spaced === folded) {
      const term = this.normalizeWord(folded);
      if (term !== undefined) out.push(term);
      return;
    }
    for (const word of spaced.split(" ")) {
      const term = this.normalizeWord(word);
      if (term !== undefined) out.push(term);
    }
  }

  private pushBigrams(run: string, out: string[]): void {
    const chars = Array.from(run);
    if (chars.length === 1) {
      out.push(run);
      return;
    }
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }

  private stem(word: string): string {
    if (!ASCII_WORD.test(word)) return word;
    const cached = this.stems.get(word);
    if (cached !== undefined) return cached;
    if (this.stems.size >= STEM_CACHE_LIMIT) this.stems.clear();
    const stemmed = stemmer(word);
    this.stems.set(word, stemmed);
    return stemmed;
  }
}
