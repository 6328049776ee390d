/**
 * The few libc calls Bun does not expose, through `bun:ffi`: becoming a child subreaper (Linux
 * prctl), reaping a child Bun did not spawn (waitpid), reading the file-descriptor limit and asking
 * the kernel's Landlock ABI version. Loaded on first use and never required: where libc
 * cannot be opened (musl under another name, a platform without the call), each answer is
 * `undefined` and the caller falls back.
 */
import { platform } from "node:os";

/** <linux/prctl.h> */
const PR_SET_CHILD_SUBREAPER = 36;
const PR_GET_CHILD_SUBREAPER = 37;
/** <linux/landlock.h>: the syscall number is the same on every architecture (unified table). */
const SYS_LANDLOCK_CREATE_RULESET = 444;
const LANDLOCK_CREATE_RULESET_VERSION = 1;
/** <sys/wait.h> */
const WNOHANG = 1;
/** <sys/resource.h>: RLIMIT_NOFILE is 7 on Linux, 8 on macOS and the BSDs. */
const RLIMIT_NOFILE = platform() === "linux" ? 7 : 8;

interface LibcSymbols {
  prctl?: (option: number, arg2: number | bigint, arg3: number, arg4: number, arg5: number) => number;
  getrlimit: (resource: number, limits: unknown) => number;
  waitpid?: (pid: number, status: unknown, options: number) => number;
  syscall?: (number: number | bigint, arg1: number | bigint, arg2: number | bigint, arg3: number) => number | bigint;
}

export interface Libc {
  /** Orphaned descendants are re-parented to us, not to init (Linux 3.4+). True when it took. */
  becomeChildSubreaper(): boolean;
  /** Collects one exited child (a zombie) without blocking; true when it was collected. */
  reap(pid: number): boolean;
  /** The hard and soft limits on open descriptors (Bun raises the soft one to the hard one). */
  fileLimit(): { soft: number; hard: number } | undefined;
  /** The Landlock ABI version the kernel offers (Linux 5.13+), or undefined where it has none. */
  landlockAbi(): number | undefined;
}

/** Opens libc, or returns undefined where it cannot be (the callers fall back). */
export function openLibc(): Libc | undefined {
  const os = platform();
  if (os !== "linux" && os !== "darwin") return undefined;
  const ffi = require("bun:ffi") as typeof import("bun:ffi");
  const { FFIType } = ffi;
  const names = os === "linux" ? ["libc.so.6", "libc.so", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1"] : ["libSystem.B.dylib"];
  for (const name of names) {
    try {
      const library = ffi.dlopen(name, {
        getrlimit: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
        waitpid: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
        ...(os === "linux" && {
          prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
          syscall: { args: [FFIType.i64, FFIType.u64, FFIType.u64, FFIType.u32], returns: FFIType.i64 },
        }),
      });
      return wrap(library.symbols as unknown as LibcSymbols, ffi);
    } catch {
      // Try the next name.
    }
  }
  return undefined;
}

function wrap(symbols: LibcSymbols, ffi: typeof import("bun:ffi")): Libc {
  return {
    becomeChildSubreaper() {
      const prctl = symbols.prctl;
      if (!prctl) return false;
      if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) !== 0) return false;
      const flag = new Int32Array(1);
      return prctl(PR_GET_CHILD_SUBREAPER, ffi.ptr(flag), 0, 0, 0) === 0 && flag[0] === 1;
    },
    reap(pid) {
      if (!symbols.waitpid || pid <= 0) return false;
      const status = new Int32Array(1);
      return symbols.waitpid(pid, ffi.ptr(status), WNOHANG) === pid;
    },
    fileLimit() {
      const limits = new BigUint64Array(2);
      if (symbols.getrlimit(RLIMIT_NOFILE, ffi.ptr(limits)) !== 0) return undefined;
      const clamp = (value: bigint | undefined) => (value === undefined || value > 1n << 31n ? 2 ** 31 : Number(value));
      return { soft: clamp(limits[0]), hard: clamp(limits[1]) };
    },
    landlockAbi() {
      if (!symbols.syscall) return undefined;
      // landlock_create_ruleset(NULL, 0, VERSION) answers the ABI version, or -1 (ENOSYS, EOPNOTSUPP).
      const version = Number(symbols.syscall(SYS_LANDLOCK_CREATE_RULESET, 0, 0, LANDLOCK_CREATE_RULESET_VERSION));
      return version > 0 ? version : undefined;
    },
  };
}
