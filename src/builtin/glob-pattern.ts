/**
 * Splits a glob into the plain directory it starts with and the part that needs matching, so
 * `src/tool/*.ts` walks only `src/tool` and an absolute pattern works like one given with `path`.
 * The plain part is resolved and confined like any other path, which also catches `../*` escapes.
 */

const GLOB_SYNTAX = /[*?[\]{}!]/;

export interface SplitGlob {
  /** The leading directory without glob syntax ("" when the pattern starts with a wildcard). */
  base: string;
  /** The rest of the pattern, matched against paths relative to `base`. */
  rest: string;
}

export function splitGlobPattern(pattern: string): SplitGlob {
  const segments = pattern.split("/");
  let plain = 0;
  // The last segment is always matched, even without wildcards: it names the files.
  while (plain < segments.length - 1 && !GLOB_SYNTAX.test(segments[plain] ?? "") && !(segments[plain] ?? "").includes("\\")) {
    plain++;
  }
  const baseSegments = segments.slice(0, plain);
  const base = baseSegments.length === 1 && baseSegments[0] === "" ? "/" : baseSegments.join("/");
  return { base, rest: segments.slice(plain).join("/") };
}

/** How deep a walk must go for `rest` to match: unbounded with `**`, else one level per segment. */
export function globDepth(rest: string): number {
  return rest.includes("**") ? Number.POSITIVE_INFINITY : rest.split("/").length;
}

/** Names of skipped directories (like node_modules) that the pattern asks for explicitly. */
export function namedSegments(pattern: string): Set<string> {
  return new Set(pattern.split("/").filter((segment) => !GLOB_SYNTAX.test(segment)));
}
