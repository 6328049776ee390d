/**
 * The paths a Bash command names, as templates (literal text and holes): its arguments, the value
 * after `=` in `--file=x`, and its redirect targets, made absolute against the session's working
 * directory with `.` and `..` folded.
 */
import { HOLE, hasHole, type Template } from "./star-match.ts";

const WRITE_OPERATORS: ReadonlySet<string> = new Set([">", ">>", ">|", "&>", "&>>", ">&"]);
const READ_OPERATORS: ReadonlySet<string> = new Set(["<", "<&"]);
/**
 * Redirect targets that are no file of the workspace: the null device, the terminal, and the
 * output descriptors. `/dev/stdin`, `/dev/fd/0` and `/dev/fd/3`… name whatever file the command
 * opened on that descriptor (`3<victim >/dev/fd/3` writes victim): like every path through
 * /proc or /dev/fd (aliasFree), they are unknown.
 */
const DEVICE_TARGET = /^\/dev\/(null|stdout|stderr|tty|fd\/[12])$/;

/** `2>&1`, `<&3`, `>&-`: the target is a descriptor, not a file. */
export function isDescriptorTarget(operator: string, target: string): boolean {
  return (operator === ">&" || operator === "<&") && /^([0-9]+-?|-)$/.test(target);
}

export interface RedirectEffect {
  read?: Template;
  write?: Template;
  /** An operator this reader does not know. */
  unknown?: string;
}

/** The working directory, or undefined once a `cd` may have changed it (relative paths then start unknown). */
export type WorkingDirectory = string | undefined;

export function redirectEffect(operator: string, target: Template, cwd: WorkingDirectory): RedirectEffect {
  if (target.length === 1 && DEVICE_TARGET.test(String(target[0]))) return {};
  const path = aliasFree(resolvePath(target, cwd));
  if (operator === "<>") return { read: path, write: path };
  if (READ_OPERATORS.has(operator)) return { read: path };
  if (WRITE_OPERATORS.has(operator)) return { write: path };
  return { unknown: `the redirection ${operator}` };
}

/** A path an earlier command of the line wrote; `link` when that command can make links (`ln -s`). */
export interface WrittenPath {
  path: string;
  link: boolean;
}

/**
 * A path through one an earlier command of the same line wrote (`ln -s /etc l; cat l/secret`), or
 * equal to one a command that makes links wrote: that may be a link made since, leading anywhere
 * (`/dev/fd`, `/proc/self/root`), so the path is unknown as a whole.
 */
export function throughWritten(path: Template, written: readonly WrittenPath[]): Template {
  const head = path[0];
  if (typeof head !== "string" || written.length === 0) return path;
  const through = written.some((earlier) => head.startsWith(`${earlier.path}/`) || (earlier.link && head === earlier.path));
  return through ? [HOLE] : path;
}

/** Letters of a short-option cluster looked at for an attached value (`-xvf.env`): past this, none. */
const MAX_CLUSTER_LETTERS = 8;

/**
 * The paths an argument may name: itself, what follows `=` (`--file=x`, `of=x`), and what follows
 * each letter of a short-option cluster (`xargs -a.env`, `file -f.env`, `tar -xf.env`: an option
 * whose value is attached names a file the same as a separate word would).
 */
export function pathCandidates(word: Template, cwd: WorkingDirectory): Template[] {
  const candidates = [word];
  const head = word[0];
  if (typeof head === "string" && head.includes("=")) candidates.push([head.slice(head.indexOf("=") + 1), ...word.slice(1)]);
  if (typeof head === "string" && /^-[a-zA-Z]/.test(head)) {
    for (let index = 2; index <= Math.min(head.length, MAX_CLUSTER_LETTERS + 1); index++) {
      candidates.push([head.slice(index), ...word.slice(1)]);
      if (!/[a-zA-Z0-9]/.test(head[index] ?? "")) break;
    }
  }
  return candidates.filter((candidate) => candidate.length > 0 && !(candidate.length === 1 && candidate[0] === "")).map((candidate) => aliasFree(resolvePath(candidate, cwd)));
}

/**
 * /proc/self/cwd, /proc/PID/root, /dev/fd/N and the like name files through another process's view
 * (its working directory, root, descriptors): where they lead is not in the text, so it is unknown.
 * So is any path with a hole: a glob or a variable may spell such a path (`/pro?/self/root/…`,
 * `$p/self/fd/3`) or climb out with `..` (`/w/$v`), and then neither the directories nor even the
 * file's own name (`/dev/fd/3`) are in the text. Every deny rule on the paths it governs matches it.
 */
function aliasFree(path: Template): Template {
  const head = path[0];
  if (hasHole(path) || (typeof head === "string" && ALIAS_ROOT.test(head))) return [HOLE];
  return path;
}

const ALIAS_ROOT = /^\/(proc|dev\/fd|dev\/std(in|out|err))(\/|$)/;

/** Absolute, with `.` and `..` folded; a `..` after a hole could go anywhere, so what precedes it becomes one. */
export function resolvePath(template: Template, cwd: WorkingDirectory): Template {
  const head = template[0];
  const relative = !(head === HOLE || (typeof head === "string" && head.startsWith("/")));
  if (relative && cwd === undefined) return [HOLE, "/", ...template];
  const absolute: Template = relative ? [`${cwd}/${head ?? ""}`, ...template.slice(1)] : template;
  if (!hasHole(absolute)) return fold(relative ? cwd : undefined, relative ? String(head ?? "") : String(absolute[0] ?? "/"));
  let lastDotDot = -1;
  absolute.forEach((part, index) => {
    if (typeof part === "string" && /(^|\/)\.\.(\/|$)/.test(part)) lastDotDot = index;
  });
  if (lastDotDot === -1) return absolute.map((part) => (typeof part === "string" ? part.replaceAll("/./", "/") : part));
  const part = String(absolute[lastDotDot]);
  const after = part.slice(part.lastIndexOf("..") + 2);
  return [HOLE, after, ...absolute.slice(lastDotDot + 1)];
}

/**
 * `text` made absolute against `base` (a real path: the session's working directory) with `.` and
 * `..` folded. A `..` may only take back a segment of the real base: after a segment the command
 * wrote, which may be a symlink (`/dev/fd/../cwd`, `link/../secrets`), the kernel goes up from
 * where the link leads, not from the text, so the path is unknown up to there: `[HOLE, rest]`.
 */
function fold(base: string | undefined, text: string): Template {
  const out: { segment: string; real: boolean }[] = (base ?? "").split("/").filter((segment) => segment !== "").map((segment) => ({ segment, real: true }));
  const segments = text.split("/");
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") {
      out.push({ segment, real: false });
      continue;
    }
    if (out.length > 0 && !out[out.length - 1]!.real) {
      // Past an unknown point, a later `..` is as unknown: keep only what follows the last one.
      const after = segments.slice(index + 1).filter((part) => part !== "" && part !== ".");
      const rest = after.slice(after.lastIndexOf("..") + 1);
      return [HOLE, rest.length > 0 ? `/${rest.join("/")}` : ""];
    }
    out.pop();
  }
  return [`/${out.map((entry) => entry.segment).join("/")}`];
}
