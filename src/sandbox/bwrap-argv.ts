/**
 * The bubblewrap command line that confines one command. Pure: the caller has found the paths.
 *
 * Mounts are applied in order, later over earlier, so the order is the policy:
 *   1. the whole system read-only (`--ro-bind / /`), a fresh /dev and /proc (of the new PID namespace);
 *   2. the workspace roots and the call's private temp dir writable;
 *   3. the masks: paths the deny rules cover (a file under /dev/null, a directory under an empty
 *      read-only tmpfs; write-denied paths bound read-only onto themselves), and the daemon's own
 *      state, socket and config, hidden whatever the rules say.
 * Namespaces: all of them (user, PID, IPC, UTS, cgroup, network), the network kept only when the
 * config says `all`. `--die-with-parent` ends the sandbox when the daemon dies, even by SIGKILL, and
 * the PID namespace ends every process of the call when the command's shell exits.
 *
 * Every directory between a writable root and a mask is bound onto itself first ("pinned"): a mount
 * point cannot be renamed. A bind mount covers the dentry found at setup, so without the pins a
 * command of another call running at the same time could rename the masked file's directory away
 * (only the file itself is a mount point in its sandbox) between this call's walk and its mounts,
 * put a decoy in its place, and this call's mask would land on the decoy, leaving the real file
 * readable under the new name. Pinned, a running call can move neither the file nor any directory
 * above it inside the roots.
 *
 * No `--new-session`: the command already runs in a session of its own without a controlling
 * terminal (the daemon spawns it detached with stdin closed), so TIOCSTI has no terminal to reach,
 * and another setsid would take it out of the process group the stop logic signals.
 */

import { dirname } from "node:path";
import { isInside } from "../runtime/path-inside.ts";
import type { PathMask } from "./deny-paths.ts";

export type SandboxNetwork = "none" | "all";

export interface BwrapPlan {
  bwrapPath: string;
  /** Directories the command may write (the session's roots that exist). */
  writable: readonly string[];
  /** The call's private temp dir (TMPDIR inside); writable, removed after the call. */
  tmpDir: string;
  masks: readonly PathMask[];
  /** Paths hidden whatever the rules say: the daemon's state dir, socket, config. */
  hidden: readonly { path: string; directory: boolean }[];
  network: SandboxNetwork;
  cwd: string;
}

/** The argv that runs `command` (already split) inside the sandbox. */
export function bwrapArgv(plan: BwrapPlan, command: readonly string[]): string[] {
  const argv = [plan.bwrapPath, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all"];
  if (plan.network === "all") argv.push("--share-net");
  argv.push("--die-with-parent");
  for (const path of plan.writable) argv.push("--bind", path, path);
  argv.push("--bind", plan.tmpDir, plan.tmpDir);
  // Pins and write-only denials first (parents before children), so a hidden path beneath a
  // read-only one is still hidden and a pin beneath a read-only directory stays read-only.
  const readOnly = plan.masks.filter((mask) => mask.effect === "read-only");
  // The daemon's own files too: a config kept in a root (`<root>/.toolpool/config.json`) whose
  // directory could be renamed would be replaced by a command's own at the next reload.
  const hiddenMasks = plan.hidden.map((entry) => ({ path: entry.path, directory: entry.directory, effect: "hide" as const }));
  const pins = pinnedDirectories([...plan.masks, ...hiddenMasks], [...plan.writable, plan.tmpDir]).filter((dir) => !readOnly.some((mask) => mask.path === dir));
  const first = [
    ...readOnly.map((mask) => ({ path: mask.path, args: maskArgs(mask) })),
    ...pins.map((dir) => ({ path: dir, args: readOnly.some((mask) => isInside(dir, mask.path)) ? ["--ro-bind", dir, dir] : ["--bind", dir, dir] })),
  ].sort((a, b) => a.path.length - b.path.length);
  for (const entry of first) argv.push(...entry.args);
  const hides = plan.masks.filter((mask) => mask.effect !== "read-only").sort((a, b) => a.path.length - b.path.length);
  for (const mask of hides) argv.push(...maskArgs(mask));
  for (const entry of plan.hidden) argv.push(...maskArgs({ path: entry.path, directory: entry.directory, effect: "hide" }));
  argv.push("--chdir", plan.cwd, "--", ...command);
  return argv;
}

/** The directories strictly between a writable root and each mask beneath it, each once. */
export function pinnedDirectories(masks: readonly PathMask[], writable: readonly string[]): string[] {
  const pins = new Set<string>();
  for (const mask of masks) {
    const root = writable.filter((dir) => isInside(mask.path, dir) && mask.path !== dir).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) continue;
    for (let dir = dirname(mask.path); dir !== root && isInside(dir, root); dir = dirname(dir)) pins.add(dir);
  }
  return [...pins];
}

function maskArgs(mask: PathMask): string[] {
  if (mask.effect === "read-only") return ["--ro-bind", mask.path, mask.path];
  if (mask.directory) return ["--tmpfs", mask.path, "--remount-ro", mask.path];
  return ["--ro-bind", "/dev/null", mask.path];
}
