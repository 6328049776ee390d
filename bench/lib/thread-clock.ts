import { dlopen, FFIType, ptr } from "bun:ffi";

/**
 * The main thread's CPU time in ms where the platform offers it (Linux: CLOCK_THREAD_CPUTIME_ID
 * through libc), else wall time (`kind` says which). On a machine shared with other work a
 * query's wall time is often the scheduler's slice; its thread CPU time is its own work.
 */
export const threadCpuClock = ((): { now: () => number; kind: "thread-cpu" | "wall" } => {
  try {
    const libc = dlopen("libc.so.6", { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
    const time = new BigInt64Array(2);
    const at = ptr(time);
    const CLOCK_THREAD_CPUTIME_ID = 3;
    return {
      kind: "thread-cpu",
      now: () => {
        libc.symbols.clock_gettime(CLOCK_THREAD_CPUTIME_ID, at);
        return Number(time[0]) * 1e3 + Number(time[1]) / 1e6;
      },
    };
  } catch {
    return { kind: "wall", now: () => Bun.nanoseconds() / 1e6 };
  }
})();
