/**
 * What the Bash rules know about command names, by name only. These lists decide how far the rules
 * look into a command; none of them lets anything through that a rule would refuse:
 * - wrappers run their arguments as a command (`sudo rm x`): deny rules also see every tail of
 *   their argv, with unknown arguments after it (`xargs rm`);
 * - shells run a script: `bash -c 'SCRIPT'` and `eval 'SCRIPT'` are parsed and checked like the
 *   command itself; a shell without `-c` reads a file or its input, which no rule can see;
 * - hidden commands (`source`, `alias`, `trap`, ...) run text the parse cannot see;
 * - read-only commands never write the files their arguments name, and commands that open no file
 *   of their arguments (`echo`) name no path at all. Every other command is taken to read and
 *   write every path its arguments name.
 */
import { pathCandidates, type WorkingDirectory } from "./shell-paths.ts";
import { HOLE, type Template } from "./star-match.ts";
import { joinWords, renderWord } from "./shell-words.ts";

/** Where a wrapper's command may start (`sudo -u x -g y rm`): past this many words it is opaque. */
export const MAX_WRAPPER_STARTS = 16;

export const WRAPPERS: ReadonlySet<string> = new Set([
  "builtin", "caffeinate", "chroot", "chrt", "command", "coproc", "doas", "env", "exec", "flock", "ionice",
  "ltrace", "nice", "nohup", "parallel", "run0", "setsid", "stdbuf", "strace", "sudo", "taskset", "time",
  "timeout", "unbuffer", "xargs", "find", "unshare", "nsenter", "firejail", "bwrap", "systemd-run", "pkexec",
  "catchsegv", "valgrind", "proot", "fakeroot", "torsocks", "proxychains", "proxychains4", "dbus-launch", "daemonize",
  "setarch", "linux32", "linux64", "i386", "x86_64", "uname26", "prlimit", "choom", "setpriv", "dbus-run-session",
  "cgexec", "numactl", "schedtool", "ld.so", "faketime", "eatmydata", "chpst", "softlimit", "envdir", "setuidgid", "s6-setuidgid",
  "logsave", "start-stop-daemon", "perf", "rr", "entr", "chronic", "sem", "nocache", "trickle",
  // Agents, version managers and task runners that run the command after them (`ssh-agent rm f`,
  // `pyenv exec rm f`, `poetry run rm f`): by name, so every tail is checked by deny rules.
  "ssh-agent", "gpg-agent", "pyenv", "rbenv", "nodenv", "goenv", "jenv", "plenv", "asdf", "mise", "rtx", "direnv", "poetry",
  "pipenv", "uv", "pdm", "hatch", "rye", "conda", "mamba", "micromamba", "bundle", "devbox", "nix", "gosu", "su-exec",
  "tini", "dumb-init", "xvfb-run", "rlwrap", "sshpass", "authbind", "fakechroot", "cpulimit", "timelimit", "gtimeout",
  "ccache", "distcc", "icecc", "flatpak-spawn", "toolbox", "distrobox-enter", "sandbox-exec", "arch", "retry", "with-lock-ex",
]);

/** The dynamic loader runs the program it is given (`/lib64/ld-linux-x86-64.so.2 /bin/rm x`). */
const DYNAMIC_LOADER = /^ld(-linux[\w.-]*|-musl[\w.-]*)?\.so(\.\d+)*$/;

/** Whether a command runs its arguments as a command: a wrapper by name, or the dynamic loader. */
export function isWrapper(base: string): boolean {
  return WRAPPERS.has(base) || DYNAMIC_LOADER.test(base);
}

/** Commands that run a command string (`su -c`, `script -c`) or a shell of their own: never read through. */
/** `watch` joins its words into a string for `sh -c`, and debuggers and benchmark runners take command strings (`-ex 'shell …'`): none is a wrapper. */
export const COMMAND_STRING_RUNNERS: ReadonlySet<string> = new Set(["su", "runuser", "script", "sg", "newgrp", "ssh", "expect", "tmux", "screen", "capsh", "watch", "gdb", "lldb", "hyperfine"]);

export const SHELLS: ReadonlySet<string> = new Set([
  "sh", "bash", "rbash", "dash", "zsh", "rzsh", "ksh", "rksh", "ksh93", "pdksh", "oksh", "loksh", "lksh", "mksh", "ash",
  "hush", "posh", "bosh", "busybox", "fish", "csh", "tcsh", "yash", "osh", "ysh", "rc", "es", "elvish", "xonsh", "nu",
]);

/** A shell by its name, a version suffix aside (`bash5.2`, `zsh-5.9`): restricted and versioned shells take `-c` too. */
export function isShell(base: string): boolean {
  return SHELLS.has(base) || SHELLS.has(base.replace(/[-.]?\d[\d.]*$/, ""));
}

/** Commands that run text the parse cannot see: a file, a definition used later, a handler. */
export const HIDDEN_RUNNERS: ReadonlySet<string> = new Set(["source", ".", "alias", "trap", "hash", "enable", "fc", "let", "bind", "complete", "compgen"]);

export const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set([
  "cat", "head", "tail", "less", "more", "wc", "grep", "egrep", "fgrep", "rg", "ls", "stat", "file", "diff",
  "cmp", "realpath", "readlink", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "od", "hexdump",
  "strings", "du", "tree", "jq", "nl", "comm", "column",
]);

/** Commands that change the working directory: relative paths after them may point anywhere. */
export const DIRECTORY_CHANGERS: ReadonlySet<string> = new Set(["cd", "pushd", "popd"]);

export const NO_PATH_COMMANDS: ReadonlySet<string> = new Set([
  "echo", "printf", "true", "false", "test", "[", "pwd", "cd", "pushd", "popd", "basename", "dirname", "sleep",
  "export", "declare", "local", "readonly", "typeset", "unset", "set", "shift", "exit", "return", "wait",
  "jobs", "which", "type", "date", "whoami", "id", "uname", "seq", "kill",
]);

/**
 * Options by which a command of NO_PATH_COMMANDS still reads a file (`date -f .env` prints each
 * line of it in an error). Every other command's arguments are all taken as paths already, the
 * value attached to an option (`-a.env`, `--file=.env`) too (see optionValues).
 */
const FILE_OPTIONS: Readonly<Record<string, readonly string[]>> = { date: ["-f", "--file"], printf: [], echo: [] };

/** A NO_PATH command's words that name files through FILE_OPTIONS (`date -f F`, `date -fF`, `date --file=F`). */
function fileOptionOperands(base: string, words: readonly Template[]): Template[] {
  const options = FILE_OPTIONS[base];
  if (!options || options.length === 0) return [];
  const operands: Template[] = [];
  words.forEach((word, index) => {
    const head = typeof word[0] === "string" ? word[0] : "";
    if (word.length === 1 && options.includes(head)) {
      const next = words[index + 1];
      if (next) operands.push(next);
      return;
    }
    for (const option of options) {
      if (!head.startsWith(option) || head === option) continue;
      const rest = head.slice(option.length + (option.startsWith("--") && head[option.length] === "=" ? 1 : 0));
      if (option.startsWith("--") && head[option.length] !== "=") continue;
      operands.push([rest, ...word.slice(1)]);
    }
  });
  return operands;
}

/**
 * Commands that read every file below a directory they are given (or the working directory when
 * given none): each argument then names the files below it too. For grep and cp only with their
 * recursive options.
 */
export function readsRecursively(base: string, args: readonly string[]): boolean {
  if (["rg", "ag", "ack", "tar", "zip", "rsync", "scp"].includes(base)) return true;
  const recursive = args.some((arg) => /^-[a-zA-Z]*[rR]/.test(arg) || arg === "--recursive" || arg === "--dereference-recursive" || (base === "cp" && /^-[a-zA-Z]*a/.test(arg)));
  return recursive && ["grep", "egrep", "fgrep", "cp"].includes(base);
}

/** Where a word is a shell's `-c` option (`-c`, `-ec`, `-Cc`, `-Ec`): its script is the next argument. */
export function isShellScriptOption(word: string): boolean {
  return /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export interface CommandReadings {
  /** Assignments and words in bash's quoting: what allow rules must cover. */
  reading: Template;
  /** What deny rules also check: without the assignments, by base name, a wrapper's tails. */
  alsoReadings: Template[];
  /** A wrapper's tails that start with a word, to be checked as commands in turn (shells, eval). */
  innerCommands: Template[][];
  /** A wrapper with more words than the tails checked. */
  tooLong: boolean;
}

/** `assignments` come rendered (`NAME=` and the value in bash's quoting); `words[0]` is static. */
export function commandReadings(assignments: readonly Template[], words: readonly Template[], base: string): CommandReadings {
  const join = (templates: readonly Template[]) => joinWords(templates.map(renderWord));
  const alsoReadings: Template[] = [];
  const innerCommands: Template[][] = [];
  if (assignments.length > 0) alsoReadings.push(join(words));
  if (base !== String(words[0]?.[0] ?? "")) alsoReadings.push(join([[base], ...words.slice(1)]));
  if (isWrapper(base)) {
    for (let start = 1; start < Math.min(words.length, MAX_WRAPPER_STARTS + 1); start++) {
      const tail = words.slice(start);
      alsoReadings.push(join(tail), joinWords([...tail.map(renderWord), [HOLE]]));
      // `nice /usr/bin/rm x` runs rm: the tail by its program's base name too, as for a command.
      const program = tail[0]?.length === 1 && typeof tail[0][0] === "string" ? tail[0][0] : undefined;
      if (program !== undefined && program.includes("/")) {
        const named: Template[] = [[baseName(program)], ...tail.slice(1)];
        alsoReadings.push(join(named), joinWords([...named.map(renderWord), [HOLE]]));
      }
      if (tail[0]?.length === 1 && typeof tail[0][0] === "string") innerCommands.push(tail);
    }
  }
  const reading = joinWords([...(assignments.length > 0 ? [joinWords(assignments)] : []), join(words)]);
  return { reading, alsoReadings, innerCommands, tooLong: isWrapper(base) && words.length > MAX_WRAPPER_STARTS + 1 };
}

/** The paths a command's arguments name, read and (unless the command only reads) written. */
export function commandPaths(base: string, words: readonly Template[], cwd: WorkingDirectory): { reads: Template[]; writes: Template[] } {
  if (NO_PATH_COMMANDS.has(base)) return { reads: fileOptionOperands(base, words.slice(1)).flatMap((word) => pathCandidates(word, cwd)), writes: [] };
  const named = words.slice(1).flatMap((word) => pathCandidates(word, cwd));
  const reads = [...named];
  const args = words.slice(1).map((word) => word.map((part) => (part === HOLE ? "" : part)).join(""));
  if (readsRecursively(base, args)) {
    // `grep -r KEY .` shows what is below `.`: every argument, and the working directory, as a directory.
    const working: Template = cwd === undefined ? [HOLE] : [cwd];
    for (const directory of [...named, working]) reads.push([...directory, "/", HOLE]);
  }
  return { reads, writes: READ_ONLY_COMMANDS.has(base) ? [] : named };
}
