/**
 * The operator's path deny rules (`Read(**\/.env)`, `Edit(src/generated/**)`, `Read(~/.ssh/**)`) as
 * the concrete paths the sandbox must cover for one call: a bind mount hides a file or directory,
 * so each rule is turned into the paths that exist now and match it.
 *
 * Where it looks: beneath the call's workspace roots and working directory, and beneath the literal
 * start of every absolute (or `~/`) pattern. A pattern that begins with `*` also matches outside
 * those places; there it is not enforced by the kernel (docs/operations.md "Security model").
 *
 * The walk is bounded by entries and time and yields to the event loop as it goes; when a bound is
 * hit the answer is an error and the call is refused: a partial list would let a program read a
 * file the rules deny.
 */
import { lstatSync, readdirSync, type Dirent } from "node:fs";
import { dirname, join } from "node:path";
import { pathRuleCoversTree, pathRuleMatches, type PathDenyRule } from "../permissions/rules.ts";
import { isInside } from "../runtime/path-inside.ts";

export const MAX_WALK_ENTRIES = 200_000;
export const MAX_WALK_MS = 3_000;
/** Each mask is a mount; past this many the command line and the mount table grow too large. */
export const MAX_MASKS = 4_096;
/**
 * Rule checks between two yields to the event loop, so other clients are served during a long walk
 * (with 1,000 session rules a yield comes every 20 entries).
 */
const CHECKS_PER_YIELD = 20_000;

/** One path the sandbox covers: `hide` (reads see nothing, writes fail) or `read-only`. */
export interface PathMask {
  path: string;
  effect: "hide" | "read-only";
  directory: boolean;
}

export interface DenyWalkInput {
  rules: readonly PathDenyRule[];
  /** Where relative patterns are read from (the call's cwd and the rule roots). */
  bases: readonly string[];
  /** Directories to look beneath: the call's workspace roots and working directory. */
  roots: readonly string[];
  home: string;
  maxEntries?: number;
  maxMs?: number;
  now?: () => number;
  /** The daemon's uid (process.getuid() unless a test says otherwise). */
  uid?: number | undefined;
}

export type DenyWalkResult = { ok: true; masks: PathMask[]; entries: number } | { ok: false; error: string };

export async function denyMasks(input: DenyWalkInput): Promise<DenyWalkResult> {
  const rules = input.rules.map((rule) => {
    const glob = withHome(rule.glob, input.home);
    // Cheap rejections before the full match (most entries of a tree match no rule): a path a
    // pattern matches ends with the pattern's text after its last `*`, and only a pattern that ends
    // in `*` can cover everything beneath a directory.
    return { ...rule, glob, tail: glob.slice(glob.lastIndexOf("*") + 1), coversTrees: glob.endsWith("*") };
  });
  if (rules.length === 0) return { ok: true, masks: [], entries: 0 };
  const now = input.now ?? (() => performance.now());
  const maxEntries = input.maxEntries ?? MAX_WALK_ENTRIES;
  const maxMs = input.maxMs ?? MAX_WALK_MS;
  const started = now();
  const yieldEvery = Math.max(1, Math.floor(CHECKS_PER_YIELD / rules.length));
  const masks = new Map<string, PathMask>();
  let entries = 0;

  const classify = (path: string, directory: boolean): "hide" | "read-only" | undefined => {
    const hits = rules.filter(
      (rule) =>
        (path.endsWith(rule.tail) && pathRuleMatches(rule, path, input.bases)) ||
        (directory && rule.coversTrees && pathRuleCoversTree(rule, path, input.bases)),
    );
    if (hits.some((rule) => rule.kind === "read")) return "hide";
    return hits.length > 0 ? "read-only" : undefined;
  };
  const add = (mask: PathMask): string | undefined => {
    masks.set(mask.path, mask);
    return masks.size > MAX_MASKS ? `the deny rules cover more than ${MAX_MASKS} paths` : undefined;
  };

  const starts = walkStarts(rules, input.roots);
  for (const start of starts) {
    const top = kindOf(start);
    if (top === undefined) continue;
    const effect = classify(start, top === "directory");
    if (effect) {
      const problem = add({ path: start, effect, directory: top === "directory" });
      if (problem) return refuse(problem);
      if (effect === "hide" || top !== "directory") continue;
    }
    if (top !== "directory") continue;
    // A directory already bound read-only needs no read-only masks beneath it, only hidden ones.
    const stack = [{ directory: start, readOnly: effect === "read-only" }];
    while (stack.length > 0) {
      const { directory, readOnly } = stack.pop()!;
      let children: Dirent[];
      try {
        children = readdirSync(directory, { withFileTypes: true });
      } catch (error) {
        const problem = unlistable(directory, error, input.uid ?? process.getuid?.());
        if (problem) return refuse(problem);
        continue;
      }
      for (const child of children) {
        entries++;
        if (entries > maxEntries) return refuse(`more than ${maxEntries} entries under ${start}`);
        if (entries % yieldEvery === 0) {
          if (now() - started > maxMs) return refuse(`listing ${start} took longer than ${maxMs} ms`);
          await new Promise((resolve) => setImmediate(resolve));
        }
        const path = join(directory, child.name);
        // A symbolic link is covered through its target: the mount is on what it points to.
        const isDirectory = child.isDirectory();
        const effect = classify(path, isDirectory);
        if (effect === "hide" || (effect === "read-only" && !readOnly)) {
          const problem = add({ path, effect, directory: isDirectory });
          if (problem) return refuse(problem);
          if (effect === "hide") continue;
        }
        if (isDirectory) stack.push({ directory: path, readOnly: readOnly || effect === "read-only" });
      }
    }
  }
  if (now() - started > maxMs) return refuse(`listing took longer than ${maxMs} ms`);
  return { ok: true, masks: [...masks.values()], entries };
}

/**
 * Why a directory the walk could not list makes the call unsafe, or undefined when skipping it is
 * safe. Skipping is safe only when the command cannot reach the directory either: it is gone
 * (ENOENT, ENOTDIR), or another user's directory the daemon's user may not read. A directory of the
 * daemon's own user that refuses (a mode an earlier call set with chmod) the command can chmod back;
 * a path past PATH_MAX (a directory an earlier call moved deep) it can reach one `cd` at a time; any
 * other error is not understood. Each of those skipped would leave a denied file unmasked.
 */
export function unlistable(directory: string, error: unknown, uid: number | undefined): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT" || code === "ENOTDIR") return undefined;
  if (code === "EACCES" || code === "EPERM") {
    let owner: number | undefined;
    try {
      owner = lstatSync(directory).uid;
    } catch {
      return undefined;
    }
    if (uid !== undefined && owner !== uid) return undefined;
    return `${directory} cannot be listed (${code}) but belongs to the daemon's user, so a command could open it`;
  }
  return `${directory.length > 200 ? `${directory.slice(0, 200)}…` : directory} cannot be listed (${code ?? String(error)})`;
}

function refuse(why: string): DenyWalkResult {
  return {
    ok: false,
    error:
      `The sandbox could not list every path the deny rules cover (${why}), so the command was not run: ` +
      `running it would let a program read what the rules deny. Narrow the workspace roots or the rules.`,
  };
}

/** `~/x` is the operator's home; a rule is written for the daemon's user. */
function withHome(glob: string, home: string): string {
  if (glob === "~") return home;
  return glob.startsWith("~/") ? `${home}${glob.slice(1)}` : glob;
}

/**
 * Where to look: the roots (outermost only), then the literal directory each absolute pattern
 * starts with when it is not already beneath a root. A pattern with no `*` names one path.
 */
export function walkStarts(rules: readonly Pick<PathDenyRule, "glob">[], roots: readonly string[]): string[] {
  const starts: string[] = [];
  const addStart = (path: string) => {
    if (starts.some((start) => isInside(path, start))) return;
    for (let index = starts.length - 1; index >= 0; index--) if (isInside(starts[index]!, path)) starts.splice(index, 1);
    starts.push(path);
  };
  for (const root of [...roots].sort((a, b) => a.length - b.length)) addStart(root);
  for (const rule of rules) {
    if (!rule.glob.startsWith("/")) continue;
    const star = rule.glob.indexOf("*");
    const literal = star === -1 ? rule.glob : rule.glob.slice(0, star);
    const start = star === -1 ? literal.replace(/\/+$/, "") || "/" : literal.endsWith("/") ? literal.replace(/\/+$/, "") || "/" : dirname(literal);
    addStart(start);
  }
  return starts;
}

function kindOf(path: string): "directory" | "other" | undefined {
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() ? "directory" : "other";
  } catch {
    return undefined;
  }
}
