import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_PINNED_ROOTS, RootPinError, RootPins } from "../../src/runtime/root-pins.ts";
import { resolveInWorkspace, WorkspacePathError } from "../../src/builtin/workspace-paths.ts";
import { openInWorkspace } from "../../src/builtin/workspace-file.ts";
import { writeInWorkspace } from "../../src/builtin/workspace-write.ts";
import { workspaceRootsOf } from "../../src/builtin/workspace-roots.ts";

const temp = (prefix: string) => realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, prefix)));

function swapped() {
  const parent = temp("pins-");
  const root = join(parent, "root");
  const outside = temp("pins-outside-");
  mkdirSync(root);
  writeFileSync(join(root, "a.txt"), "inside\n");
  writeFileSync(join(outside, "a.txt"), "OUTSIDE\n");
  const pins = new RootPins();
  const pinned = pins.pinAll([root]);
  const context = { cwd: root, workspaceRoots: [root], rootPins: pinned };
  const swap = () => {
    renameSync(root, join(parent, "root.old"));
    symlinkSync(outside, root);
  };
  return { parent, root, outside, pins, pinned, context, swap };
}

describe("root pins", () => {
  test("one descriptor per directory, shared; closed when the last holder lets go", () => {
    const root = temp("pins-share-");
    const pins = new RootPins();
    const [first] = pins.pinAll([root]);
    const [second] = pins.pinAll([root]);
    expect(second).toBe(first!);
    expect(readlinkSync(`/proc/self/fd/${first!.fd}`)).toBe(root);
    pins.release(first!);
    expect(first!.fd).toBeGreaterThanOrEqual(0);
    pins.release(second!);
    expect({ fd: first!.fd, size: pins.size }).toEqual({ fd: -1, size: 0 });
  });

  test("displaced: moved (and where to), deleted; a path beneath maps to the descriptor, the root itself to /proc/self/fd/N/.", () => {
    const { parent, root, pinned, swap } = swapped();
    const pin = pinned[0]!;
    expect(pin.displaced()).toBeUndefined();
    expect(pin.beneath(join(root, "x", "y"))).toBe(`/proc/self/fd/${pin.fd}/x/y`);
    expect(pin.beneath(root)).toBe(`/proc/self/fd/${pin.fd}/.`);
    expect(pin.beneath("/elsewhere/x")).toBe("/elsewhere/x");
    swap();
    expect(pin.displaced()).toBe(`the directory the session opened is now at ${join(parent, "root.old")}`);
    rmSync(join(parent, "root.old"), { recursive: true });
    expect(pin.displaced()).toBe("the directory was deleted");
  });

  test("a swapped root refuses by name: resolveInWorkspace says the root moved, never resolves through the link", () => {
    const { root, parent, context, swap } = swapped();
    expect(resolveInWorkspace(join(root, "a.txt"), context)).toBe(join(root, "a.txt"));
    swap();
    expect(() => resolveInWorkspace(join(root, "a.txt"), context)).toThrow(WorkspacePathError);
    expect(() => resolveInWorkspace("a.txt", context)).toThrow(
      `a.txt is in the workspace root ${root}, which was moved or replaced since this session opened it (the directory the session opened is now at ${join(parent, "root.old")}).`,
    );
  });

  test("a swap between the check and the open: the open starts at the pinned directory and its result is checked, so nothing outside is read or written", async () => {
    const { root, outside, context, swap } = swapped();
    const roots = workspaceRootsOf(context);
    swap();
    const opened = await openInWorkspace(join(root, "a.txt"), roots);
    expect(opened.ok).toBe(false);
    expect(JSON.stringify(opened)).not.toContain("OUTSIDE");
    const written = await writeInWorkspace(join(root, "planted.txt"), "x", roots);
    expect(written.ok).toBe(false);
    expect(Bun.spawnSync(["ls", outside]).stdout.toString()).toBe("a.txt\n");
  });

  test("at most MAX_PINNED_ROOTS distinct directories; the next is refused by name", () => {
    const base = temp("pins-many-");
    const pins = new RootPins();
    const held = [];
    for (let index = 0; index < MAX_PINNED_ROOTS; index++) {
      mkdirSync(join(base, String(index)));
      held.push(pins.pin(join(base, String(index))));
    }
    mkdirSync(join(base, "over"));
    expect(() => pins.pin(join(base, "over"))).toThrow(RootPinError);
    pins.releaseAll(held);
    expect(pins.size).toBe(0);
  });
});
