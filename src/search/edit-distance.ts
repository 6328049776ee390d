/**
 * Levenshtein distance with adjacent transpositions (optimal string alignment), computed only
 * inside a band of width `limit`; returns `limit + 1` as soon as the distance must exceed it.
 * Rows are reused through `scratch` so a scan over many names allocates nothing.
 */
export function boundedEditDistance(
  a: string,
  b: string,
  limit: number,
  scratch: EditDistanceScratch = new EditDistanceScratch(),
): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (a === b) return 0;
  const width = b.length + 1;
  const { previous2, previous, current } = scratch.rows(width);
  for (let j = 0; j < width; j++) previous[j] = j;
  let before = previous2;
  let above = previous;
  let row = current;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    row[0] = i;
    if (from > 1) row[from - 1] = limit + 1;
    let rowMinimum = from > 1 ? limit + 1 : i;
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      row[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (to < b.length) row[to + 1] = limit + 1;
    if (rowMinimum > limit) return limit + 1;
    const recycled = before;
    before = above;
    above = row;
    row = recycled;
  }
  return Math.min(above[b.length]!, limit + 1);
}

/** Reusable rows for boundedEditDistance. */
export class EditDistanceScratch {
  private buffers = [new Int32Array(64), new Int32Array(64), new Int32Array(64)] as const;

  rows(width: number): { previous2: Int32Array; previous: Int32Array; current: Int32Array } {
    if (this.buffers[0].length < width) {
      const size = Math.max(width, this.buffers[0].length * 2);
      this.buffers = [new Int32Array(size), new Int32Array(size), new Int32Array(size)];
    }
    const [previous2, previous, current] = this.buffers;
    previous2.fill(0, 0, width);
    previous.fill(0, 0, width);
    current.fill(0, 0, width);
    return { previous2, previous, current };
  }
}
