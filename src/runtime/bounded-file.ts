/**
 * Reading a small file the daemon itself depends on (the config, the flags features file) without
 * ever blocking on it: opened with O_NONBLOCK, checked on the open descriptor (a FIFO, device or
 * socket swapped in after a check by name is refused instead of parking the thread in open(2) or
 * read(2)), and read from that descriptor, at most `maxBytes` (a file that grows meanwhile cannot
 * make the read unbounded). Synchronous on purpose: callers read it at start-up and on SIGHUP, and
 * a bounded read of a regular file is short.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

export type BoundedRead = { ok: true; text: string } | { ok: false; reason: string; missing: boolean };

export function readRegularFileSync(path: string, maxBytes: number): BoundedRead {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: "not a regular file", missing: false };
    if (stat.size > maxBytes) return { ok: false, reason: `file is ${stat.size} bytes; the limit is ${maxBytes}`, missing: false };
    const buffer = Buffer.allocUnsafe(maxBytes + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) return { ok: false, reason: `file grew past the ${maxBytes}-byte limit while read`, missing: false };
    }
    return { ok: true, text: buffer.toString("utf8", 0, length) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, reason: "file not found", missing: true };
    if (code === "ENXIO") return { ok: false, reason: "not a regular file", missing: false };
    return { ok: false, reason: `cannot read: ${(error as Error).message}`, missing: false };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
