/**
 * Programs whose ordinary options or scripts run a shell command or open files the reading cannot
 * see: `flock -c 'rm f'`, `git -c alias.x='!rm f' x` (and `core.sshCommand`, `core.pager`, … — any
 * `-c`/`--config-env` before the subcommand), awk's `system()`, pipes, `getline` and `print >`, and
 * sed's `e` command, `s///e` and its `r`/`w` file commands. Each is a command string or a path the
 * rules would have to parse in another language, so the command is opaque (every deny rule refuses
 * it). A sed script is walked command by command (addresses, `s` and `y` bodies skipped by their
 * delimiter); anything it does not know makes it opaque too. `--sandbox` (GNU sed then refuses
 * `e`, `r` and `w` itself) needs no walk.
 */
import { hasHole, type Template } from "./star-match.ts";

const AWKS: ReadonlySet<string> = new Set(["awk", "gawk", "mawk", "nawk", "original-awk", "bawk"]);
/** git's global options that take the next word (its value is not the subcommand). */
const GIT_VALUE_OPTIONS: ReadonlySet<string> = new Set(["-C", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--super-prefix", "--list-cmds", "--attr-source"]);

/** Why `base words…` runs text the rules cannot read, or undefined. */
export function commandStringOption(base: string, words: readonly Template[]): string | undefined {
  const args = words.slice(1);
  const text = (word: Template) => (word.length === 1 ? String(word[0]) : undefined);
  if (base === "flock" && args.some((word) => /^(-[a-zA-Z]*c|--command(=.*)?)$/.test(text(word) ?? ""))) {
    return "`flock -c`, which runs a command string the rules do not parse";
  }
  if (base === "git") {
    for (let index = 0; index < args.length; index++) {
      const word = text(args[index]!);
      if (word === undefined) return "`git` with an option known only at run time";
      if (!word.startsWith("-")) return undefined;
      if (word.startsWith("-c") || word.startsWith("--config-env")) return "`git -c`, whose settings (`alias.x=!…`, `core.sshCommand`, `core.pager`) run command strings";
      if (GIT_VALUE_OPTIONS.has(word)) index++;
    }
    return undefined;
  }
  if (AWKS.has(base) || (base === "busybox" && text(args[0] ?? []) === "awk")) {
    const script = args.filter((word) => !(text(word) ?? "").startsWith("-") || hasHole(word));
    if (args.some((word) => /^(-[a-zA-Z]*f|--file)/.test(text(word) ?? "")) || script.some((word) => hasHole(word) || /system|getline|[|>]/.test(text(word) ?? ""))) {
      return `\`${base}\` with a program that may run commands or open files (\`system\`, \`|\`, \`getline\`, \`>\`, \`-f\`)`;
    }
    return undefined;
  }
  if (base === "sed" || base === "gsed") {
    if (args.some((word) => text(word) === "--sandbox")) return undefined;
    if (args.some((word) => /^(-[a-zA-Z]*f|--file)/.test(text(word) ?? ""))) return `\`${base} -f\`, whose script is in a file`;
    // The script: each -e/--expression value, else the first word that is not an option.
    const scripts: Template[] = [];
    for (let index = 0; index < args.length; index++) {
      const word = text(args[index]!);
      if (word === "-e" || word === "--expression") scripts.push(args[++index] ?? []);
      else if (word?.startsWith("--expression=")) scripts.push([word.slice(13)]);
      else if (word !== undefined && /^-[a-zA-Z]*e./.test(word)) scripts.push([word.slice(word.indexOf("e") + 1)]);
    }
    if (scripts.length === 0) {
      const first = args.find((word) => !(text(word) ?? "").startsWith("-"));
      if (first) scripts.push(first);
    }
    if (scripts.some((word) => hasHole(word) || !sedScriptIsPlain(text(word) ?? ""))) {
      return `\`${base}\` with a script that may run commands or open files (\`e\`, \`s///e\`, \`r\`, \`w\`): add --sandbox`;
    }
  }
  return undefined;
}

/** Whether a sed script has no command that runs text or opens a file (`e`, `r`, `R`, `w`, `W`, `s///e`, `s///w`). */
export function sedScriptIsPlain(script: string): boolean {
  let at = 0;
  const skipDelimited = (delimiter: string): boolean => {
    while (at < script.length && script[at] !== delimiter) {
      if (script[at] === "\\") at++;
      if (script[at] === "\n") return false;
      at++;
    }
    if (at >= script.length) return false;
    at++;
    return true;
  };
  const toLineEnd = () => {
    while (at < script.length && script[at] !== "\n") at++;
  };
  while (at < script.length) {
    const char = script[at]!;
    if (" \t\n;{}!,~+".includes(char) || /[0-9$]/.test(char)) {
      at++;
      continue;
    }
    if (char === "/") {
      at++;
      if (!skipDelimited("/")) return false;
      while (at < script.length && "IM".includes(script[at]!)) at++;
      continue;
    }
    if (char === "\\") {
      const delimiter = script[at + 1];
      if (delimiter === undefined) return false;
      at += 2;
      if (!skipDelimited(delimiter)) return false;
      continue;
    }
    at++;
    if (char === "s" || char === "y") {
      const delimiter = script[at];
      if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") return false;
      at++;
      if (!skipDelimited(delimiter) || !skipDelimited(delimiter)) return false;
      const flags = /^[a-zA-Z0-9]*/.exec(script.slice(at))![0];
      if (char === "s" && /[ewEW]/.test(flags)) return false;
      at += flags.length;
      continue;
    }
    if ("aic#:btT".includes(char)) {
      // Text, a comment, a label: to the end of the line (a label also ends at `;`).
      if (":btT".includes(char)) while (at < script.length && script[at] !== "\n" && script[at] !== ";") at++;
      else toLineEnd();
      continue;
    }
    if ("pdDnNgGhHxlL=qQzFP".includes(char)) continue;
    return false; // e, r, R, w, W, v and anything unknown
  }
  return true;
}
