/** Write and Edit: creating, overwriting, exact replacement, uniqueness, line endings. */
import { describe, expect, test } from "bun:test";
import { chmodSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { makeWorkspace } from "./fixture.ts";

describe("Write", () => {
  test("creates missing parent directories, then overwrites", async () => {
    using workspace = makeWorkspace();
    const path = workspace.path("a/b/c.txt");
    expect(await workspace.run("Write", { file_path: "a/b/c.txt", content: "one\ntwo\n" })).toEqual({
      text: `Created ${path} (2 lines, 8 bytes).`,
      isError: false,
    });
    expect(await workspace.run("Write", { file_path: path, content: "x" })).toEqual({
      text: `Overwrote ${path} (1 line, 1 byte).`,
      isError: false,
    });
    expect(await Bun.file(path).text()).toBe("x");
  });

  test("writes by temp file and rename: no temp file is left, and a file in the way of a parent is named", async () => {
    using workspace = makeWorkspace();
    await workspace.run("Write", { file_path: "deep/er/x.txt", content: "one" });
    await workspace.run("Write", { file_path: "deep/er/x.txt", content: "two" });
    await workspace.run("Edit", { file_path: "deep/er/x.txt", old_string: "two", new_string: "three" });
    expect(readdirSync(workspace.path("deep/er"))).toEqual(["x.txt"]);
    expect(await Bun.file(workspace.path("deep/er/x.txt")).text()).toBe("three");
    workspace.file("plain.txt", "a file");
    expect(await workspace.run("Write", { file_path: "plain.txt/inner.txt", content: "x" })).toEqual({
      text: `${workspace.path("plain.txt")} is not a directory, so no file can be written inside it.`,
      isError: true,
    });
  });

  test("keeps an overwritten file's mode", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("run.sh", "echo old");
    chmodSync(path, 0o755);
    await workspace.run("Write", { file_path: path, content: "echo new" });
    expect(statSync(path).mode & 0o777).toBe(0o755);
  });

  test("writes through a symlink that stays inside the workspace", async () => {
    using workspace = makeWorkspace();
    const target = workspace.file("real.txt", "old");
    symlinkSync(target, workspace.path("link.txt"));
    expect(await workspace.run("Write", { file_path: "link.txt", content: "new" })).toEqual({
      text: `Overwrote ${target} (1 line, 3 bytes).`,
      isError: false,
    });
    expect(await Bun.file(target).text()).toBe("new");
  });

  test("refuses a directory as target", async () => {
    using workspace = makeWorkspace();
    workspace.file("dir/x", "");
    expect(await workspace.run("Write", { file_path: "dir", content: "x" })).toEqual({
      text: `${workspace.path("dir")} is a directory; give the path of a file inside it.`,
      isError: true,
    });
  });

  test("is refused in a read-only session", async () => {
    using workspace = makeWorkspace();
    const result = await workspace.run("Write", { file_path: "x.txt", content: "x" }, { permissions: { mode: "readOnly", allow: [], deny: [] } });
    expect(result).toEqual({
      text: "Permission denied for Write: the session is read-only and this call may write.",
      isError: true,
    });
  });
});

describe("Edit", () => {
  test("replaces a unique string and shows the changed region", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("code.ts", "a\nb\nc\nconst x = 1;\nd\ne\nf\ng\n");
    const result = await workspace.call("Edit", { file_path: path, old_string: "const x = 1;", new_string: "const x = 2;\nconst y = 3;" });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: [
            `Edited ${path}: replaced 1 occurrence.`,
            "The changed region now reads:",
            "     1\ta",
            "     2\tb",
            "     3\tc",
            "     4\tconst x = 2;",
            "     5\tconst y = 3;",
            "     6\td",
            "     7\te",
            "     8\tf",
          ].join("\n"),
        },
      ],
      isError: false,
      structuredContent: { replacements: 1 },
    });
    expect(await Bun.file(path).text()).toBe("a\nb\nc\nconst x = 2;\nconst y = 3;\nd\ne\nf\ng\n");
  });

  test("refuses an ambiguous string unless replace_all, then reports the count", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("names.txt", "foo bar foo baz foo");
    expect(await workspace.run("Edit", { file_path: path, old_string: "foo", new_string: "qux" })).toEqual({
      text: `old_string occurs 3 times in ${path}. Include more of the surrounding text so it matches exactly one place, or set replace_all to true to change all 3.`,
      isError: true,
    });
    expect(await Bun.file(path).text()).toBe("foo bar foo baz foo");
    const result = await workspace.call("Edit", { file_path: path, old_string: "foo", new_string: "qux", replace_all: true });
    expect(result.structuredContent).toEqual({ replacements: 3 });
    expect(await Bun.file(path).text()).toBe("qux bar qux baz qux");
  });

  test("a string that is not found changes nothing", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("a.txt", "    indented\n");
    expect(await workspace.run("Edit", { file_path: path, old_string: "\tindented", new_string: "x" })).toEqual({
      text: `old_string was not found in ${path}. It must match the file exactly, including whitespace, indentation and line breaks; Read the file and copy the text (without the line-number prefix).`,
      isError: true,
    });
    expect(await Bun.file(path).text()).toBe("    indented\n");
  });

  test("new_string is literal: $& and $1 are not replacement patterns", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("a.txt", "price");
    await workspace.run("Edit", { file_path: path, old_string: "price", new_string: "$& costs $1 and $$" });
    expect(await Bun.file(path).text()).toBe("$& costs $1 and $$");
  });

  test("keeps CRLF line endings and a byte-order mark", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("win.txt", "\uFEFFone\r\ntwo\r\nthree\r\n");
    const result = await workspace.run("Edit", { file_path: path, old_string: "one\ntwo", new_string: "1\n2" });
    expect(result.isError).toBe(false);
    // Compared as bytes: Bun.file().text() would hide the BOM.
    expect(Buffer.from(await Bun.file(path).bytes()).toString("latin1")).toBe("\xEF\xBB\xBF1\r\n2\r\nthree\r\n");
  });

  test("deleting text with an empty new_string", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("a.txt", "keep drop keep");
    await workspace.run("Edit", { file_path: path, old_string: " drop", new_string: "" });
    expect(await Bun.file(path).text()).toBe("keep keep");
  });

  test("an empty old_string creates a new file, or fills an empty one, and nothing else", async () => {
    using workspace = makeWorkspace();
    const created = workspace.path("new/file.txt");
    expect(await workspace.run("Edit", { file_path: created, old_string: "", new_string: "hello" })).toEqual({
      text: `Created ${created} with the given text.`,
      isError: false,
    });
    expect(await Bun.file(created).text()).toBe("hello");
    const empty = workspace.file("empty.txt", "");
    expect((await workspace.run("Edit", { file_path: empty, old_string: "", new_string: "filled" })).isError).toBe(false);
    expect(await Bun.file(empty).text()).toBe("filled");
    expect(await workspace.run("Edit", { file_path: created, old_string: "", new_string: "again" })).toEqual({
      text: `old_string is empty but ${created} is not: give the exact text to replace.`,
      isError: true,
    });
  });

  test("missing and binary files are refused", async () => {
    using workspace = makeWorkspace();
    const binary = workspace.file("a.bin", new Uint8Array([1, 0, 2]));
    expect(await workspace.run("Edit", { file_path: "nope.txt", old_string: "a", new_string: "b" })).toEqual({
      text: `File does not exist: ${workspace.path("nope.txt")}. To create a new file, use Write.`,
      isError: true,
    });
    expect(await workspace.run("Edit", { file_path: binary, old_string: "a", new_string: "b" })).toEqual({
      text: `Cannot edit: ${binary} is a binary file (it contains NUL bytes).`,
      isError: true,
    });
  });
});
