/**
 * Porter's stemmer over character codes, for words of lowercase ASCII letters: the same stems as
 * the `stemmer` npm package (2.0.1), which the index was first built with and the tests compare
 * against, quirks included, but with no regular expression run and, for most words, no string
 * made but the result (a suffix replaced or an `e` added makes one string each).
 *
 * The package's expressions, read as what they accept:
 * - a letter is a vowel when it is a, e, i, o or u, or a `y` after a consonant; a first `y` is a
 *   consonant (the package turns it into `Y`). A word is then runs of consonants and vowels, and
 *   its measure m is how many consonant runs follow a vowel run: `gt0` is m ≥ 1, `gt1` m ≥ 2,
 *   `eq1` m = 1, `vowelInStem` "holds a vowel";
 * - `consonantLike` (`^C [aeiouy] [^aeiouwxy]$`) is the whole stem being one consonant run, one
 *   vowel, then one consonant other than w, x, y (not only its last three letters, as in Porter's paper);
 * - `^(.+?)(suffix|…)$` takes the longest listed suffix that leaves at least one letter, and when
 *   the stem it leaves fails the step's test, no shorter suffix is tried.
 */

/** A suffix and what replaces it. */
type Rule = readonly [suffix: string, replacement: string];
/** Rules grouped by their suffix's last letter (index: code − 0x61), each group longest first. */
type Rules = readonly (readonly Rule[])[];

const STEP2 = byLastLetter([
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"], ["bli", "ble"],
  ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"], ["ization", "ize"], ["ation", "ate"],
  ["ator", "ate"], ["alism", "al"], ["iveness", "ive"], ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"],
  ["iviti", "ive"], ["biliti", "ble"], ["logi", "log"],
]);
const STEP3 = byLastLetter([
  ["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""],
]);
const STEP4 = byLastLetter(
  ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ou", "ism", "ate", "iti", "ous", "ive", "ize"].map(
    (suffix): Rule => [suffix, ""],
  ),
);

function byLastLetter(rules: Rule[]): Rules {
  const groups: Rule[][] = Array.from({ length: 26 }, () => []);
  for (const rule of rules) groups[rule[0].charCodeAt(rule[0].length - 1) - 0x61]!.push(rule);
  for (const group of groups) group.sort((a, b) => b[0].length - a[0].length);
  return groups;
}

const A = 0x61;
const E = 0x65;
const I = 0x69;
const L = 0x6c;
const S = 0x73;
const Y = 0x79;

/**
 * The Porter stem of `word`, which must be lowercase ASCII letters (`/^[a-z]+$/`, what every caller
 * stems): the package lowercases first and reads other characters by its expressions' classes, this does not.
 */
export function porterStem(word: string): string {
  if (word.length < 3) return word;
  let w = word;
  let end = w.length;

  // Step 1a: sses → ss, ies → i, s → (not after s).
  if ((endsWith(w, end, "sses") && end >= 5) || (endsWith(w, end, "ies") && end >= 4)) end -= 2;
  else if (w.charCodeAt(end - 1) === S && w.charCodeAt(end - 2) !== S) end -= 1; // (three letters or more)

  // Step 1b: eed → ee when m > 0; else ed, ing removed when the rest holds a vowel, then tidied.
  if (endsWith(w, end, "eed") && end >= 4) {
    if (measure(w, end - 3) >= 1) end -= 1;
  } else {
    const stem = endsWith(w, end, "ed") && end >= 3 ? end - 2 : endsWith(w, end, "ing") && end >= 4 ? end - 3 : -1;
    if (stem > 0 && hasVowel(w, stem)) {
      end = stem;
      if (endsWith(w, end, "at") || endsWith(w, end, "bl") || endsWith(w, end, "iz")) {
        w = w.slice(0, end) + "e";
        end++;
      } else if (end >= 2 && w.charCodeAt(end - 1) === w.charCodeAt(end - 2) && isDoubled(w.charCodeAt(end - 1))) {
        end -= 1;
      } else if (consonantLike(w, end)) {
        w = w.slice(0, end) + "e";
        end++;
      }
    }
  }

  // Step 1c: y → i when the rest holds a vowel.
  if (w.charCodeAt(end - 1) === Y && hasVowel(w, end - 1)) {
    w = w.slice(0, end - 1) + "i";
  }

  // Steps 2 and 3: a suffix replaced when the stem before it has m > 0.
  const step2 = replaceSuffix(STEP2, w, end);
  if (step2 !== undefined) {
    w = step2;
    end = w.length;
  }
  const step3 = replaceSuffix(STEP3, w, end);
  if (step3 !== undefined) {
    w = step3;
    end = w.length;
  }

  // Step 4: a suffix removed when m > 1; (s|t)ion loses its ion only when no listed suffix ends the word.
  const rule = longestSuffix(STEP4, w, end);
  if (rule !== undefined) {
    if (measure(w, end - rule[0].length) >= 2) end -= rule[0].length;
  } else if (endsWith(w, end, "ion") && end >= 5 && (w.charCodeAt(end - 4) === S || w.charCodeAt(end - 4) === 0x74) && measure(w, end - 3) >= 2) {
    end -= 3;
  }

  // Step 5: a final e removed when m > 1, or m = 1 and the rest is not consonant-vowel-consonant; ll → l when m > 1.
  if (end >= 2 && w.charCodeAt(end - 1) === E) {
    const m = measure(w, end - 1);
    if (m >= 2 || (m === 1 && !consonantLike(w, end - 1))) end -= 1;
  }
  if (end >= 2 && w.charCodeAt(end - 1) === L && w.charCodeAt(end - 2) === L && measure(w, end) >= 2) end -= 1;

  return end === w.length ? w : w.slice(0, end);
}

/** w[0, end) ends with `suffix`. */
function endsWith(w: string, end: number, suffix: string): boolean {
  const from = end - suffix.length;
  if (from < 0) return false;
  for (let i = 0; i < suffix.length; i++) if (w.charCodeAt(from + i) !== suffix.charCodeAt(i)) return false;
  return true;
}

/** w[0, end) with the rules' suffix replaced when the stem before it has m > 0; undefined when it is not. */
function replaceSuffix(rules: Rules, w: string, end: number): string | undefined {
  const rule = longestSuffix(rules, w, end);
  if (rule === undefined || measure(w, end - rule[0].length) < 1) return undefined;
  return w.slice(0, end - rule[0].length) + rule[1];
}

/** The longest of the rules' suffixes that ends w[0, end) and leaves at least one letter. */
function longestSuffix(rules: Rules, w: string, end: number): Rule | undefined {
  const group = rules[w.charCodeAt(end - 1) - A];
  if (group === undefined) return undefined;
  for (const rule of group) if (rule[0].length < end && endsWith(w, end, rule[0])) return rule;
  return undefined;
}

function isPlainVowel(code: number): boolean {
  return code === A || code === E || code === I || code === 0x6f || code === 0x75;
}

/**
 * Whether the letter `code` at index i is a vowel, given whether the one before is: a, e, i, o, u,
 * or a `y` after a consonant (a first `y` is a consonant).
 */
function isVowel(code: number, i: number, vowelBefore: boolean): boolean {
  return isPlainVowel(code) || (code === Y && i > 0 && !vowelBefore);
}

/** The second of two equal final letters that step 1b undoubles: not a vowel, y, l, s or z. */
function isDoubled(code: number): boolean {
  return !isPlainVowel(code) && code !== Y && code !== L && code !== S && code !== 0x7a;
}

/** How many consonant runs follow a vowel run in w[0, end). */
function measure(w: string, end: number): number {
  let m = 0;
  let vowel = false;
  for (let i = 0; i < end; i++) {
    const now = isVowel(w.charCodeAt(i), i, vowel);
    if (vowel && !now) m++;
    vowel = now;
  }
  return m;
}

/** w[0, end) holds a vowel. */
function hasVowel(w: string, end: number): boolean {
  let vowel = false;
  for (let i = 0; i < end && !vowel; i++) vowel = isVowel(w.charCodeAt(i), i, vowel);
  return vowel;
}

/** w[0, end) is one consonant run, one vowel, and a final consonant other than w, x or y. */
function consonantLike(w: string, end: number): boolean {
  const last = w.charCodeAt(end - 1);
  if (end < 3 || last === 0x77 || last === 0x78 || last === Y || isPlainVowel(w.charCodeAt(0))) return false;
  // Consonants from the first letter up to the last but one, a vowel.
  let vowel = false;
  for (let i = 1; i < end - 1; i++) {
    vowel = isVowel(w.charCodeAt(i), i, vowel);
    if (vowel !== (i === end - 2)) return false;
  }
  return !isVowel(last, end - 1, true);
}
