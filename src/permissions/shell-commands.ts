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

export const WRAPPERS = new Set([
  "builtin", "caffeinate", "chroot", "chrt", "command", "coproc", "doas", "env", "exec", "flock", "ionice",
  "ltrace", "nice", "nohup", "parallel", "run0", "setsid", "stdbuf", "strace", "sudo", "taskset", "time",
  "timeout", "unbuffer", "watch", "xargs", "find",
]);

export const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish", "csh", "tcsh", "yash"]);

/** Commands that run text the parse cannot see: a file, a definition used later, a handler. */
export const HIDDEN_RUNNERS = new Set(["source", ".", "alias", "trap", "hash", "enable", "fc", "let", "bind", "complete", "compgen"]);

export const READ_ONLY_COMMANDS = new Set([
  "cat", "head", "tail", "less", "more", "wc", "grep", "egrep", "fgrep", "rg", "ls", "stat", "file", "diff",
  "cmp", "realpath", "readlink", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "od", "hexdump",
  "strings", "du", "tree", "jq", "nl", "comm", "column",
]);

export const NO_PATH_COMMANDS = new Set([
  "echo", "printf", "true", "false", "test", "[", "pwd", "cd", "pushd", "popd", "basename", "dirname", "sleep",
  "export", "declare", "local", "readonly", "typeset", "unset", "set", "shift", "exit", "return", "wait",
  "jobs", "which", "type", "date", "whoami", "id", "uname", "seq", "kill",
]);

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

/** Where a word is a shell's `-c` option (`-c`, `-ec`, `-lc`): its script is the next argument. */
export function isShellScriptOption(word: string): boolean {
  return /^-[a-z]*c[a-z]*$/.test(word);
}
