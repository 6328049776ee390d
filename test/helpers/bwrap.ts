/**
 * Whether this machine has a working bubblewrap, for the sandbox tests: on CI (CI=true) a missing or
 * broken bwrap is an error (.ci/run installs it), elsewhere those tests are skipped.
 */
import { existsSync } from "node:fs";

export const BWRAP = "/usr/bin/bwrap";

export function bwrapWorks(): boolean {
  const works =
    existsSync(BWRAP) &&
    Bun.spawnSync([BWRAP, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--dev", "/dev", "--proc", "/proc", "true"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
  if (!works && process.env.CI === "true") throw new Error(`${BWRAP} is missing or does not work here: CI must install the bubblewrap package (.ci/run) and allow user namespaces`);
  return works;
}
