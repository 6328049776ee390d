/**
 * Rule patterns against text that is only partly known. A rule's pattern is literal text and `*`
 * (any run of characters, `/` included). A call's subject is a template: literal text and holes,
 * where a hole stands for text a static reading cannot know (`$x`, `$(...)`, a glob, `~`).
 *
 * - `mayMatch`: some filling of the holes makes the pattern match. Deny rules use it: a deny rule
 *   that could match is treated as matching.
 * - `mustMatch`: every filling does. Allow rules use it, and it is sufficient, not exact: a hole
 *   counts as covered only where a `*` of the pattern absorbs it.
 *
 * Text without holes (and must-match) is matched greedily, in the time of a few string searches;
 * holes under may-match take a two-row walk of O(pattern × subject) steps, refused past
 * MAX_MATCH_STEPS in the safe direction.
 */

/** Stands for unknown text inside a template. */
export const HOLE: unique symbol = Symbol("hole");
export type Hole = typeof HOLE;
export type TemplatePart = string | Hole;
/** Literal strings and holes, in order. A plain string is a template without holes. */
export type Template = readonly TemplatePart[];

/** One unit of a pattern or template: a character, or a wildcard (`*` / a hole). */
type Unit = string | null;

function patternUnits(pattern: string): Unit[] {
  const units: Unit[] = [];
  for (const char of pattern) {
    if (char !== "*") units.push(char);
    else if (units[units.length - 1] !== null) units.push(null);
  }
  return units;
}

function templateUnits(template: Template | string): Unit[] {
  const units: Unit[] = [];
  const parts = typeof template === "string" ? [template] : template;
  for (const part of parts) {
    if (part === HOLE) {
      if (units[units.length - 1] !== null) units.push(null);
    } else {
      for (const char of part) units.push(char);
    }
  }
  return units;
}

/**
 * Past this many steps (pattern units × template units) the two-row walk is not run: a deny rule
 * counts as matching and an allow rule as not covering (1,000 rules of 1,000 characters against a
 * 64 KiB command took 95 s on the thread that serves everyone). Text without holes never needs it.
 */
export const MAX_MATCH_STEPS = 4_000_000;
/** Stands for a hole in the text the greedy matcher searches; a pattern holding it takes the walk. */
const HOLE_CHAR = "\uE000";

/**
 * `*`-only patterns against text where holes count as no literal character (all text, or must-match):
 * leftmost-first search of each literal piece between stars is exact for such patterns, and runs in
 * the time of a few `indexOf`s instead of pattern × text.
 */
function greedyMatch(pattern: string, text: string): boolean {
  const pieces = pattern.split(/\*+/);
  if (pieces.length === 1) return pattern === text;
  const first = pieces[0] ?? "";
  const last = pieces[pieces.length - 1] ?? "";
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    if (piece === "") continue;
    const found = text.indexOf(piece, at);
    if (found === -1 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/**
 * Whether the pattern can match the template. `holesAbsorb` says whether a hole may stand for the
 * pattern's literal characters (may-match) or only for what a `*` takes (must-match).
 */
function matches(pattern: string, template: Template | string, holesAbsorb: boolean): boolean {
  const parts = typeof template === "string" ? [template] : template;
  if (!pattern.includes(HOLE_CHAR) && (!holesAbsorb || !parts.includes(HOLE))) {
    return greedyMatch(pattern, parts.map((part) => (part === HOLE ? HOLE_CHAR : part)).join(""));
  }
  const p = patternUnits(pattern);
  const t = templateUnits(template);
  // Fail closed: too costly to decide means "may match" for deny rules, "not covered" for allow rules.
  if (p.length * t.length > MAX_MATCH_STEPS) return holesAbsorb;
  // row[i]: pattern[0..i) and template[0..j) can be made equal. Two rows, swapped: no garbage per character.
  let row = new Uint8Array(p.length + 1);
  let next = new Uint8Array(p.length + 1);
  row[0] = 1;
  closeOverPatternStars(row, p);
  for (let j = 0; j < t.length; j++) {
    const unit = t[j];
    next.fill(0);
    const first = row.indexOf(1);
    if (unit === null && holesAbsorb) {
      // A hole can be any text, so it can be whatever the rest of the pattern takes from `first` on.
      next.fill(1, first);
    } else {
      for (let i = first; i <= p.length; i++) {
        if (!row[i]) continue;
        const want = p[i];
        if (want === null) next[i] = 1; // a `*` takes this character, or the hole
        else if (want === unit) next[i + 1] = 1;
      }
    }
    closeOverPatternStars(next, p);
    [row, next] = [next, row];
    if (row.indexOf(1) === -1) return false;
  }
  return row[p.length] === 1;
}

/** A `*` may take nothing: wherever the pattern stands before a `*`, it may stand after it too. */
function closeOverPatternStars(row: Uint8Array, p: readonly Unit[]): void {
  for (let i = 0; i < p.length; i++) if (row[i] && p[i] === null) row[i + 1] = 1;
}

export function mayMatch(pattern: string, template: Template | string): boolean {
  return matches(pattern, template, true);
}

export function mustMatch(pattern: string, template: Template | string): boolean {
  return matches(pattern, template, false);
}

/** The template as text, holes shown as `…` (for messages). */
export function showTemplate(template: Template): string {
  return template.map((part) => (part === HOLE ? "…" : part)).join("");
}

export function hasHole(template: Template): boolean {
  return template.includes(HOLE);
}
