import { describe, expect, test } from "bun:test";
import { cutLine, wholeSlice } from "../../src/tool/one-line.ts";

const HALF = /\p{Cs}/u;

describe("one-line text", () => {
  test("a cut never keeps half a character: every length of an emoji run, with and without the line's ellipsis", () => {
    const text = `a${"😀".repeat(50)}`;
    for (let end = 0; end <= text.length + 1; end++) {
      const cut = wholeSlice(text, end);
      expect({ end, half: HALF.test(cut), prefix: text.startsWith(cut), short: end - cut.length <= 1 }).toEqual({ end, half: false, prefix: true, short: true });
      const line = cutLine(text, Math.max(2, end));
      expect({ end, half: HALF.test(line), bounded: line.length <= Math.max(2, end) }).toEqual({ end, half: false, bounded: true });
    }
    // A lone surrogate already in the text at the cut is the text's own, not the cut's: kept as it is.
    expect(wholeSlice("ab\ud83d", 3)).toBe("ab\ud83d");
    expect(wholeSlice("ab\ud83d\ude00", 3)).toBe("ab");
  });
});
