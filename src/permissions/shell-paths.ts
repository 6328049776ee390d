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

/** The paths an argument may name: itself, and what follows `=` (`--file=x`, `of=x`). */
export function pathCandidates(word: Template, cwd: WorkingDirectory): Template[] {
  const candidates = [word];
  const head = word[0];
  if (typeof head === "string" && head.includes("=")) candidates.push([head.slice(head.indexOf("=") + 1), ...word.slice(1)]);
  return candidates.filter((candidate) => candidate.length > 0).map((candidate) => aliasFree(resolvePath(candidate, cwd)));
}

/**
 * /proc/self/cwd, /proc/PID/root, /dev/fd/N and the like name files through another process's view
 * (its working directory, root, descriptors): where they lead is not in the text, so it is unknown.
 */
function aliasFree(path: Template): Template {
  const head = path[0];
  if (typeof head === "string" && /^\/(proc|dev\/fd|dev\/std(in|out|err))(\/|$)/.test(head)) return [HOLE];
  return path;
}

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
