/** The session's read rules are asked again about the file really opened, not only the name checked. */
import { expect, test } from "bun:test";
import { mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openInWorkspace } from "../../src/builtin/workspace-file.ts";

test("a name that leads to a file the rules refuse is not read, whatever the name", async () => {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "ws-")));
  writeFileSync(join(root, ".env"), "SECRET=1\n");
  writeFileSync(join(root, "a.txt"), "fine\n");
  // A link swapped in after the name was checked: what is opened is .env.
  symlinkSync(join(root, ".env"), join(root, "swap"));
  const readable = (real: string) => !real.endsWith("/.env");
  const direct = await openInWorkspace(join(root, ".env"), [root], false, readable);
  expect(direct).toMatchObject({ ok: false, missing: false });
  const fine = await openInWorkspace(join(root, "a.txt"), [root], false, readable);
  expect(fine.ok).toBe(true);
  if (fine.ok) await fine.entry[Symbol.asyncDispose]();
  // O_NOFOLLOW refuses the link itself; the real-path check is what holds when a directory above it is swapped.
  const viaLink = await openInWorkspace(join(root, "swap"), [root], false, readable);
  expect(viaLink.ok).toBe(false);
});
