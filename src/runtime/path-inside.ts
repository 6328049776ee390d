import { sep } from "node:path";

/** Whether `path` is `root` itself or lies beneath it (both absolute; compare real paths for a ceiling). */
export function isInside(path: string, root: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return path.startsWith(prefix);
}
