/**
 * What this system offers for confining a command, found once at daemon start: bubblewrap present
 * and working (it is run once, so a bwrap that user namespaces or a container policy stop is not
 * taken for a sandbox), and, for the record, whether unprivileged user namespaces and Landlock are
 * there. Only bubblewrap is used to confine (see docs/operations.md "Security model" for why).
 */
import { existsSync, readFileSync } from "node:fs";
import { openLibc } from "../runtime/libc.ts";

/** Where bubblewrap is looked for when neither the config nor TOOLPOOL_BWRAP names it. */
export const BWRAP_CANDIDATES = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"] as const;
/** The environment variable that names the bwrap binary (tests point it at a missing path). */
export const BWRAP_PATH_VARIABLE = "TOOLPOOL_BWRAP";
/** A bwrap that has not answered by then counts as not working. */
export const PROBE_TIMEOUT_MS = 5_000;

export interface SandboxSupport {
  /** The backend that confines commands, or "none" when there is none here. */
  backend: "bubblewrap" | "none";
  /** The bwrap binary that worked. */
  bwrapPath?: string;
  /** Why there is no backend (what was tried and what it said). */
  reason?: string;
  /** Facts for `status`: the kernel's Landlock ABI version and whether user namespaces are allowed. */
  landlockAbi?: number;
  userNamespaces: boolean | "unknown";
  /** How long finding all this took at start. */
  probeMs: number;
}

export interface ProbeOptions {
  /** An explicit bwrap path (config or TOOLPOOL_BWRAP); otherwise BWRAP_CANDIDATES. */
  bwrapPath?: string;
  timeoutMs?: number;
}

/** Runs bwrap once with the namespaces every call will ask for; never throws. */
export async function probeSandbox(options: ProbeOptions = {}): Promise<SandboxSupport> {
  // Beside the daemon's start, not in front of it: one turn first, so the socket opens before the
  // probe's synchronous parts (spawning bwrap, loading libc through bun:ffi) take the thread.
  await new Promise((resolve) => setImmediate(resolve));
  const started = performance.now();
  // The kernel facts last: they only inform status, and libc's trampolines take a few ms to compile.
  const done = (result: Omit<SandboxSupport, "probeMs" | "userNamespaces" | "landlockAbi">): SandboxSupport => ({
    ...result,
    ...kernelFacts(),
    probeMs: Math.round((performance.now() - started) * 100) / 100,
  });
  if (process.platform !== "linux") return done({ backend: "none", reason: `no sandbox backend on ${process.platform} yet (bubblewrap is Linux only)` });
  const path = options.bwrapPath ?? BWRAP_CANDIDATES.find((candidate) => existsSync(candidate));
  if (path === undefined) return done({ backend: "none", reason: "bubblewrap (bwrap) is not installed; install the bubblewrap package" });
  if (!existsSync(path)) return done({ backend: "none", reason: `bubblewrap was named at ${path}, which does not exist` });
  const problem = await tryBwrap(path, options.timeoutMs ?? PROBE_TIMEOUT_MS);
  if (problem) return done({ backend: "none", reason: `bubblewrap at ${path} does not work here: ${problem}` });
  return done({ backend: "bubblewrap", bwrapPath: path });
}

async function tryBwrap(path: string, timeoutMs: number): Promise<string | undefined> {
  const argv = [path, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "true"];
  let child: ReturnType<typeof Bun.spawn>;
  try {
    child = Bun.spawn(argv, { stdin: "ignore", stdout: "ignore", stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  try {
    const code = await child.exited;
    if (code === 0) return undefined;
    const stderr = (await new Response(child.stderr as ReadableStream).text()).trim().slice(0, 300);
    return child.signalCode ? `no answer within ${timeoutMs} ms` : `exit ${code}${stderr ? `: ${stderr}` : ""}`;
  } finally {
    clearTimeout(timer);
  }
}

function kernelFacts(): Pick<SandboxSupport, "landlockAbi" | "userNamespaces"> {
  if (process.platform !== "linux") return { userNamespaces: false };
  const abi = openLibc()?.landlockAbi();
  return { ...(abi !== undefined && { landlockAbi: abi }), userNamespaces: userNamespacesAllowed() };
}

/** Debian/Ubuntu's switch first, then the general count (0 means none may be made). */
function userNamespacesAllowed(): boolean | "unknown" {
  for (const [file, off] of [
    ["/proc/sys/kernel/unprivileged_userns_clone", "0"],
    ["/proc/sys/user/max_user_namespaces", "0"],
  ] as const) {
    try {
      if (readFileSync(file, "utf8").trim() === off) return false;
    } catch {
      continue;
    }
  }
  return existsSync("/proc/self/ns/user") ? true : "unknown";
}
