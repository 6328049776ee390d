// Isolates every test run: HOME, the XDG dirs and the socket dir point into a fresh temp dir,
// so no test reads or writes the developer's real config, state or sockets. Bun.spawn without an
// `env` gives the child the environment the run started with, not these: a test that starts the
// binary passes `env: process.env` (or uses test/helpers/binary.ts, which does).
import { afterAll } from "bun:test";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = mkdtempSync(join(tmpdir(), "toolpool-test-"));
for (const [key, dir] of [
  ["HOME", "home"],
  ["XDG_CONFIG_HOME", "config"],
  ["XDG_STATE_HOME", "state"],
  ["XDG_CACHE_HOME", "cache"],
  ["XDG_RUNTIME_DIR", "run"],
] as const) {
  const path = join(root, dir);
  mkdirSync(path, { recursive: true, mode: 0o700 });
  process.env[key] = path;
}
delete process.env.TOOLPOOL_SOCKET;
delete process.env.TOOLPOOL_CONFIG;
delete process.env.ENABLE_TOOL_SEARCH;
delete process.env.DISABLE_EXPERIMENTAL_BETAS;
// `toolpool auth login` never opens a browser from a test.
process.env.TOOLPOOL_NO_BROWSER = "1";
process.env.TOOLPOOL_TEST_ROOT = root;
// Temp dirs a test (or a binary it runs) makes with os.tmpdir() land inside the run's root too,
// and the root goes when the run ends: runs no longer leave toolpool-test-* dirs in /tmp.
const tmp = join(root, "tmp");
mkdirSync(tmp, { mode: 0o700 });
process.env.TMPDIR = tmp;
// The whole run's temp tree (catalog caches of 40,000 tools, fixture logs, …) can take longer to
// remove than the 5 s hook budget on a loaded machine, which bun reports as an "(unnamed)" failure
// of the last test file: the hook gets its own budget. (bun test emits no process "exit" event.)
afterAll(() => rmSync(root, { recursive: true, force: true }), 120_000);
