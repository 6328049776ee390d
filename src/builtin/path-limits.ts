/**
 * Length limits for every path and pattern a file tool is given, checked before any resolution
 * work: a 400 KB `file_path` of `/a` × 200,000 otherwise cost seconds of path walking on the thread
 * that serves every client. The limits are Linux's own (PATH_MAX, NAME_MAX), so no path a real
 * file can have is refused.
 */

/** Bytes in a whole path (Linux PATH_MAX, including what the working directory adds). */
export const MAX_PATH_BYTES = 4096;
/** Bytes in one component between slashes (Linux NAME_MAX). */
export const MAX_PATH_COMPONENT_BYTES = 255;

/** Why `value` (named `field` in the message) breaks a limit, or undefined when it does not. */
export function pathLimitProblem(value: string, field: string): string | undefined {
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > MAX_PATH_BYTES) {
    return `${field} is ${bytes.toLocaleString("en-US")} bytes long; the limit is ${MAX_PATH_BYTES} bytes (PATH_MAX). Give a shorter path.`;
  }
  let start = 0;
  while (start <= value.length) {
    const slash = value.indexOf("/", start);
    const end = slash === -1 ? value.length : slash;
    // Only a component that could be too long is measured in bytes (UTF-8 takes up to 3 per char).
    if (end - start > MAX_PATH_COMPONENT_BYTES / 3) {
      const component = value.slice(start, end);
      const componentBytes = Buffer.byteLength(component, "utf8");
      if (componentBytes > MAX_PATH_COMPONENT_BYTES) {
        return `${field} has a component of ${componentBytes} bytes ("${component.slice(0, 40)}…"); the limit is ${MAX_PATH_COMPONENT_BYTES} bytes per name (NAME_MAX).`;
      }
    }
    if (slash === -1) break;
    start = slash + 1;
  }
  return undefined;
}
