import type { InvertedIndex } from "./inverted-index.ts";
import { Tokenizer } from "./tokenizer.ts";

/**
 * Kinds of thing people name by an instance: a request says "Friday", "km" or "notes.txt", a tool
 * says "date", "distance" or "file". Each row is a class word (first) and member words, written
 * from general vocabulary (units, calendar words, languages, file formats, currencies), not from
 * any evaluation query. A member word in a request reaches its class word at memberSynonyms'
 * weight (query-expansion.ts); a class word reaches no members: a class has many, and a tool
 * naming one instance ("csv") is not thereby about the whole class ("file").
 */
export const MEMBER_CLASSES: readonly (readonly string[])[] = [
  // Calendar words: a date argument, by its day.
  ["date", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weekday", "weekend", "tomorrow", "yesterday", "today"],
  ["date", "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december"],
  // Units of measure, by what they measure.
  ["distance", "km", "kilometer", "kilometre", "mile", "meter", "metre", "feet", "foot", "yard"],
  ["temperature", "celsius", "fahrenheit", "kelvin", "degree"],
  ["duration", "minute", "hour", "minutes", "hours"],
  ["weight", "kg", "kilogram", "gram", "pound", "ounce", "lb"],
  ["size", "byte", "kb", "mb", "gb", "tb", "kilobyte", "megabyte", "gigabyte"],
  ["currency", "usd", "eur", "gbp", "jpy", "dollar", "euro", "yen"],
  // Human languages, by the word translation and locale tools use.
  ["language", "english", "french", "spanish", "german", "italian", "portuguese", "chinese", "japanese", "korean", "russian", "arabic", "hindi", "dutch"],
  // Programming languages.
  ["code", "python", "javascript", "typescript", "java", "rust", "golang", "ruby", "php", "kotlin", "swift", "csharp", "cpp"],
  // File formats: a named file ("out.txt" splits into out + txt) is a file.
  ["file", "txt", "csv", "tsv", "yaml", "yml", "toml", "ini", "pdf", "docx", "xlsx", "pptx", "md", "zip", "tar"],
  ["image", "png", "jpg", "jpeg", "gif", "svg", "webp", "bmp"],
  ["audio", "mp3", "wav", "flac", "ogg"],
  ["video", "mp4", "mov", "avi", "mkv", "webm"],
];

/** Words of MemberTable's id filter: 2,048 bits. */
const FILTER_WORDS = 64;

/**
 * The classes as term ids of one index: member term id → its class words' ids. Resolved again
 * whenever the index's dictionary has grown (a new tool may bring a class word in).
 */
export class MemberTable {
  private byMember = new Map<number, number[]>();
  /** Member term → class ids, for a member word no tool has (it has no id: "out.txt" in a pool where no tool says txt). */
  private byWord = new Map<string, number[]>();
  /** Bit `id & 2047` of every member id: most query terms are no member, answered without a Map probe. */
  private readonly filter = new Int32Array(FILTER_WORDS);
  private resolvedAt = -1;
  private stems: (readonly string[])[] | undefined;

  constructor(private readonly classes: readonly (readonly string[])[] = MEMBER_CLASSES) {}

  /** Ids of the class words `id` is a member of in `index`, or undefined. */
  classesOf(index: InvertedIndex, id: number): readonly number[] | undefined {
    if (this.resolvedAt !== index.terms.length) this.resolve(index);
    if ((this.filter[(id >>> 5) & (FILTER_WORDS - 1)]! & (1 << (id & 31))) === 0) return undefined;
    return this.byMember.get(id);
  }

  /** Ids of the class words the term `word`, which `index` does not have, is a member of, or undefined. */
  classesOfWord(index: InvertedIndex, word: string): readonly number[] | undefined {
    if (this.resolvedAt !== index.terms.length) this.resolve(index);
    return this.byWord.get(word);
  }

  private resolve(index: InvertedIndex): void {
    this.stems ??= stemRows(this.classes);
    const byMember = new Map<number, number[]>();
    const byWord = new Map<string, number[]>();
    for (const [word, ...members] of this.stems) {
      const classId = index.termId(word!);
      if (classId === undefined) continue;
      for (const member of members) {
        const id = index.termId(member);
        if (id === undefined) {
          const list: number[] = byWord.get(member) ?? [];
          if (!list.includes(classId)) list.push(classId);
          byWord.set(member, list);
          continue;
        }
        if (id === classId) continue;
        const list: number[] = byMember.get(id) ?? [];
        if (!list.includes(classId)) list.push(classId);
        byMember.set(id, list);
      }
    }
    this.byMember = byMember;
    this.byWord = byWord;
    this.filter.fill(0);
    for (const id of byMember.keys()) this.filter[(id >>> 5) & (FILTER_WORDS - 1)]! |= 1 << (id & 31);
    this.resolvedAt = index.terms.length;
  }
}

/** Each row's words as index terms (stemmed as the tokenizer does); a class word that is not one term drops its row. */
function stemRows(rows: readonly (readonly string[])[]): (readonly string[])[] {
  const tokenizer = new Tokenizer();
  const out: (readonly string[])[] = [];
  for (const row of rows) {
    const terms = row.map((word) => tokenizer.tokenize(word));
    if (terms[0]!.length !== 1) continue;
    out.push(terms.filter((word) => word.length === 1).map((word) => word[0]!));
  }
  return out;
}
