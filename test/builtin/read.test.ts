/** Read: numbered lines, ranges, long lines, size cap, binary refusal, images. */
import { describe, expect, test } from "bun:test";
import { MAX_READ_BYTES, MAX_READ_OUTPUT_CHARS } from "../../src/builtin/read.ts";
import { makeWorkspace } from "./fixture.ts";

const numbered = (from: number, lines: readonly string[]) =>
  lines.map((line, index) => `${String(from + index).padStart(6)}\t${line}`).join("\n");

function linesOf(count: number, make = (n: number) => `line ${n}`): string[] {
  return Array.from({ length: count }, (_, index) => make(index + 1));
}

describe("Read", () => {
  test("returns a whole small file in cat -n style, CRLF and BOM removed from the view", async () => {
    using workspace = makeWorkspace();
    workspace.file("a.txt", "\uFEFFalpha\r\n\tbeta\r\n\r\ngamma");
    expect(await workspace.run("Read", { file_path: "a.txt" })).toEqual({
      text: numbered(1, ["alpha", "\tbeta", "", "gamma"]),
      isError: false,
    });
  });

  test("offset and limit select a range and say where to continue", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("ten.txt", `${linesOf(10).join("\n")}\n`);
    expect(await workspace.run("Read", { file_path: path, offset: 3, limit: 2 })).toEqual({
      text: `${numbered(3, ["line 3", "line 4"])}\n[Showing lines 3-4 of 10. Continue with offset 5.]`,
      isError: false,
    });
    expect(await workspace.run("Read", { file_path: path, offset: 9 })).toEqual({
      text: `${numbered(9, ["line 9", "line 10"])}\n[Showing lines 9-10 of 10.]`,
      isError: false,
    });
    expect((await workspace.run("Read", { file_path: path, offset: 0, limit: 1 })).text).toBe(
      `${numbered(1, ["line 1"])}\n[Showing lines 1-1 of 10. Continue with offset 2.]`,
    );
    expect(await workspace.run("Read", { file_path: path, offset: 11 })).toEqual({
      text: `${path} has 10 lines; offset 11 is past the end of the file.`,
      isError: true,
    });
  });

  test("reads 2000 lines by default", async () => {
    using workspace = makeWorkspace();
    const lines = linesOf(2500, (n) => String(n));
    workspace.file("long.txt", lines.join("\n"));
    const { text } = await workspace.run("Read", { file_path: "long.txt" });
    expect(text).toBe(`${numbered(1, lines.slice(0, 2000))}\n[Showing lines 1-2000 of 2500. Continue with offset 2001.]`);
  });

  test("cuts long lines and says how much was cut", async () => {
    using workspace = makeWorkspace();
    workspace.file("wide.txt", `${"x".repeat(2500)}\nshort\n`);
    const { text } = await workspace.run("Read", { file_path: "wide.txt" });
    expect(text).toBe(numbered(1, [`${"x".repeat(2000)} [... line cut: 500 more characters]`, "short"]));
  });

  test("a range of a file that is one enormous line stays bounded and exact", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("one-line.min.js", "y".repeat(3_000_000));
    expect(await workspace.run("Read", { file_path: path, offset: 1, limit: 5 })).toEqual({
      text: `${numbered(1, [`${"y".repeat(2000)} [... line cut: 2,998,000 more characters]`])}`,
      isError: false,
    });
  });

  test("empty files, directories and missing files", async () => {
    using workspace = makeWorkspace();
    const empty = workspace.file("empty.txt", "");
    workspace.file("dir/inner.txt", "x");
    expect(await workspace.run("Read", { file_path: empty })).toEqual({ text: `${empty} is empty.`, isError: false });
    expect(await workspace.run("Read", { file_path: "dir" })).toEqual({
      text: `${workspace.path("dir")} is a directory. Use Glob to list its files.`,
      isError: true,
    });
    expect(await workspace.run("Read", { file_path: "nope.txt" })).toEqual({
      text: `File does not exist: ${workspace.path("nope.txt")}`,
      isError: true,
    });
  });

  test("refuses binary content: NUL bytes or invalid UTF-8", async () => {
    using workspace = makeWorkspace();
    const nul = workspace.file("nul.bin", new Uint8Array([0x61, 0x00, 0x62]));
    const latin1 = workspace.file("latin1.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await workspace.run("Read", { file_path: nul })).toEqual({
      text: `${nul} looks like a binary file (it contains NUL bytes); Read only shows text and images.`,
      isError: true,
    });
    expect(await workspace.run("Read", { file_path: latin1 })).toEqual({
      text: `${latin1} looks like a binary file (it is not valid UTF-8 text); Read only shows text and images.`,
      isError: true,
    });
  });

  test("refuses a file over the size cap unless a range is given", async () => {
    using workspace = makeWorkspace();
    const lines = linesOf(30_000, (n) => `row ${n} ${"-".repeat(10)}`);
    const path = workspace.file("big.log", lines.join("\n"));
    expect(Bun.file(path).size).toBeGreaterThan(MAX_READ_BYTES);
    expect(await workspace.run("Read", { file_path: path })).toEqual({
      text:
        `${path} is ${(Bun.file(path).size / 1024).toFixed(1)} KB, more than the 256.0 KB Read returns at once. ` +
        "Read a range with offset and limit (for example offset 1, limit 500), or use Grep to find the lines you need.",
      isError: true,
    });
    expect(await workspace.run("Read", { file_path: path, offset: 20_000, limit: 3 })).toEqual({
      text: `${numbered(20_000, lines.slice(19_999, 20_002))}\n[Showing lines 20000-20002; the file continues. Continue with offset 20003.]`,
      isError: false,
    });
    expect((await workspace.run("Read", { file_path: path, offset: 29_999 })).text).toBe(
      `${numbered(29_999, lines.slice(29_998))}\n[Showing lines 29999-30000 of 30000.]`,
    );
  });

  test("stops before the character budget and gives the offset to continue from", async () => {
    using workspace = makeWorkspace();
    const lines = linesOf(200, (n) => `${n}`.padEnd(1000, "."));
    const path = workspace.file("dense.txt", lines.join("\n"));
    const { text, isError } = await workspace.run("Read", { file_path: path, offset: 1, limit: 200 });
    const perLine = 7 + 1000 + 1;
    const fit = Math.floor(MAX_READ_OUTPUT_CHARS / perLine);
    expect(isError).toBe(false);
    expect(text).toBe(
      `${numbered(1, lines.slice(0, fit))}\n[Output stopped at line ${fit} to stay under 90,000 characters. Continue with offset ${fit + 1}.]`,
    );
  });

  test("returns images as image blocks, sniffed by content", async () => {
    using workspace = makeWorkspace();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3, 4]);
    const path = workspace.file("pixel", png);
    expect(await workspace.call("Read", { file_path: path })).toEqual({
      content: [
        { type: "image", data: Buffer.from(png).toString("base64"), mimeType: "image/png" },
        { type: "text", text: `${path}: image/png image, 16 bytes.` },
      ],
      isError: false,
    });
  });

  test("a Read(**/.env) deny rule matches relative paths and symlink aliases", async () => {
    using workspace = makeWorkspace();
    workspace.file(".env", "SECRET=1");
    workspace.file("docs/readme.md", "hi");
    await Bun.$`ln -s .env innocent.txt`.cwd(workspace.root).quiet();
    const permissions = { mode: "default" as const, allow: [], deny: ["Read(**/.env)"] };
    for (const file_path of [".env", "./docs/../.env", "innocent.txt", workspace.path(".env")]) {
      const { text, isError } = await workspace.run("Read", { file_path }, { permissions });
      expect({ file_path, text, isError }).toEqual({
        file_path,
        text: 'Permission denied for Read: denied by the rule "Read(**/.env)".',
        isError: true,
      });
    }
    expect((await workspace.run("Read", { file_path: "docs/readme.md" }, { permissions })).isError).toBe(false);
  });

  test("is allowed in a read-only session", async () => {
    using workspace = makeWorkspace();
    workspace.file("a.txt", "a");
    const result = await workspace.run("Read", { file_path: "a.txt" }, { permissions: { mode: "readOnly", allow: [], deny: [] } });
    expect(result).toEqual({ text: numbered(1, ["a"]), isError: false });
  });
});
