/** NotebookEdit: surgical edits that leave every untouched byte of the notebook as it was, and its refusals. */
import { describe, expect, test } from "bun:test";
import { notebookEditTool } from "../../src/builtin/notebook-edit.ts";
import { resultText } from "../../src/tool/result.ts";
import { makeWorkspace } from "./fixture.ts";

const tools = [notebookEditTool];

/** What Jupyter writes: sorted keys, 1-space indent, a final newline. */
function jupyter(notebook: unknown): string {
  return `${JSON.stringify(notebook, null, 1)}\n`;
}

const canonical = {
  cells: [
    { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Title\n", "Some text"] },
    {
      cell_type: "code",
      execution_count: 3,
      id: "calc",
      metadata: { tags: ["x"] },
      outputs: [{ name: "stdout", output_type: "stream", text: ["2\n"] }],
      source: ["x = 1\n", "print(x * 2)"],
    },
  ],
  metadata: { kernelspec: { display_name: "Python 3", name: "python3" } },
  nbformat: 4,
  nbformat_minor: 5,
};

/** Written by some other tool: 2-space indent, unsorted keys, 1.0 and 1e3, an escaped é, no final newline. */
const handWritten = `{
  "metadata": {"kernelspec": {"name": "python3"}, "scale": 1.0, "big": 1e3},
  "nbformat": 4,
  "nbformat_minor": 5,
  "cells": [
    {
      "id": "intro",
      "cell_type": "markdown",
      "metadata": {},
      "source": "Caf\\u00e9 notes"
    },
    {
      "id": "calc",
      "cell_type": "code",
      "metadata": {"collapsed": false},
      "execution_count": 7,
      "outputs": [{"output_type": "stream", "name": "stdout", "text": "2.0\\n"}],
      "source": ["x = 1.0\\n", "print(x * 2)"]
    }
  ]
}`;

describe("NotebookEdit", () => {
  test("replace in a Jupyter-written notebook keeps it exactly as Jupyter would write it", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("a.ipynb", jupyter(canonical));
    const result = await workspace.call("NotebookEdit", { notebook_path: "a.ipynb", cell_id: "calc", new_source: "y = 3\nprint(y)" }, { tools });
    expect(resultText(result)).toBe(`Replaced the source of cell 1 (id calc) in ${path}.`);
    const expected = structuredClone(canonical);
    Object.assign(expected.cells[1] as object, { execution_count: null, outputs: [], source: ["y = 3\n", "print(y)"] });
    expect(await Bun.file(path).text()).toBe(jupyter(expected));
  });

  test("replace touches only the cell's source, outputs and count; every other byte is kept", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("hand.ipynb", handWritten);
    const result = await workspace.call("NotebookEdit", { notebook_path: path, cell_number: 1, new_source: "y = 3\nprint(y)" }, { tools });
    expect(result.isError).toBe(false);
    const expected = handWritten
      .replace(`"execution_count": 7`, `"execution_count": null`)
      .replace(`[{"output_type": "stream", "name": "stdout", "text": "2.0\\n"}]`, "[]")
      .replace(`["x = 1.0\\n", "print(x * 2)"]`, `[\n        "y = 3\\n",\n        "print(y)"\n      ]`);
    expect(await Bun.file(path).text()).toBe(expected);
  });

  test("a string source stays a string, and a markdown cell has no outputs to clear", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("hand.ipynb", handWritten);
    await workspace.call("NotebookEdit", { notebook_path: path, cell_id: "intro", new_source: "Plain é\nnotes" }, { tools });
    expect(await Bun.file(path).text()).toBe(handWritten.replace(`"Caf\\u00e9 notes"`, `"Plain é\\nnotes"`));
  });

  test("insert puts a Jupyter-shaped cell between two others, with a fresh id, separators copied", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("hand.ipynb", handWritten);
    const result = await workspace.call(
      "NotebookEdit",
      { notebook_path: path, cell_id: "intro", new_source: "## Step two", cell_type: "markdown", edit_mode: "insert" },
      { tools },
    );
    const id = (result.structuredContent?.cell as { id: string }).id;
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(resultText(result)).toBe(`Inserted a new markdown cell 1 (id ${id}) into ${path}.`);
    const cell = `{\n      "cell_type": "markdown",\n      "id": "${id}",\n      "metadata": {},\n      "source": [\n        "## Step two"\n      ]\n    },\n    `;
    const at = handWritten.indexOf(`{\n      "id": "calc"`);
    expect(await Bun.file(path).text()).toBe(handWritten.slice(0, at) + cell + handWritten.slice(at));
  });

  test("insert at the end and at the start, and into an empty cells array", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("a.ipynb", jupyter({ ...canonical, cells: [] }));
    await workspace.call("NotebookEdit", { notebook_path: path, new_source: "b = 2", edit_mode: "insert" }, { tools });
    await workspace.call("NotebookEdit", { notebook_path: path, new_source: "a = 1", edit_mode: "insert", cell_number: 0 }, { tools });
    await workspace.call("NotebookEdit", { notebook_path: path, new_source: "c", cell_type: "markdown", edit_mode: "insert", cell_number: 2 }, { tools });
    const text = await Bun.file(path).text();
    const parsed = JSON.parse(text) as typeof canonical;
    const ids = parsed.cells.map((cell) => cell.id);
    expect(text).toBe(
      jupyter({
        ...canonical,
        cells: [
          { cell_type: "code", execution_count: null, id: ids[0], metadata: {}, outputs: [], source: ["a = 1"] },
          { cell_type: "code", execution_count: null, id: ids[1], metadata: {}, outputs: [], source: ["b = 2"] },
          { cell_type: "markdown", id: ids[2], metadata: {}, source: ["c"] },
        ],
      }),
    );
  });

  test("delete removes exactly the cell and its separator", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("hand.ipynb", handWritten);
    expect(resultText(await workspace.call("NotebookEdit", { notebook_path: path, cell_number: 0, new_source: "", edit_mode: "delete" }, { tools }))).toBe(
      `Deleted cell 0 (id intro) from ${path}.`,
    );
    const first = handWritten.indexOf(`{\n      "id": "intro"`);
    const second = handWritten.indexOf(`{\n      "id": "calc"`);
    expect(await Bun.file(path).text()).toBe(handWritten.slice(0, first) + handWritten.slice(second));
    await workspace.call("NotebookEdit", { notebook_path: path, cell_id: "calc", new_source: "", edit_mode: "delete" }, { tools });
    expect(await Bun.file(path).text()).toBe(handWritten.slice(0, handWritten.indexOf("[\n    {")) + "[]\n}");
  });

  test("changing a cell's type rewrites that cell only, keeping its id and metadata", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("a.ipynb", jupyter(canonical));
    await workspace.call("NotebookEdit", { notebook_path: path, cell_id: "calc", new_source: "Now prose", cell_type: "markdown" }, { tools });
    const expected = structuredClone(canonical);
    (expected.cells as unknown[])[1] = { cell_type: "markdown", id: "calc", metadata: { tags: ["x"] }, source: ["Now prose"] };
    expect(await Bun.file(path).text()).toBe(jupyter(expected));
  });

  test("one-line notebooks stay on one line; CRLF notebooks get CRLF; notebooks without ids get none", async () => {
    using workspace = makeWorkspace();
    const compact = `{"cells":[{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[],"source":"a"}],"metadata":{},"nbformat":4,"nbformat_minor":4}`;
    const path = workspace.file("c.ipynb", compact);
    await workspace.call("NotebookEdit", { notebook_path: path, new_source: "b", cell_type: "markdown", edit_mode: "insert", cell_number: 1 }, { tools });
    expect(await Bun.file(path).text()).toBe(compact.replace(`"source":"a"}]`, `"source":"a"},{"cell_type":"markdown","metadata":{},"source":["b"]}]`));

    const crlf = jupyter(canonical).replaceAll("\n", "\r\n");
    const crlfPath = workspace.file("d.ipynb", crlf);
    await workspace.call("NotebookEdit", { notebook_path: crlfPath, cell_id: "intro", new_source: "one\ntwo" }, { tools });
    const expected = structuredClone(canonical);
    expected.cells[0] = { ...canonical.cells[0], source: ["one\n", "two"] } as (typeof canonical.cells)[number];
    expect(await Bun.file(crlfPath).text()).toBe(jupyter(expected).replaceAll("\n", "\r\n"));
  });

  const refusals: [label: string, input: Record<string, unknown>, message: string][] = [
    ["not a notebook", { notebook_path: "notes.txt", cell_number: 0, new_source: "x" }, "notes.txt is not a .ipynb file. NotebookEdit changes Jupyter notebooks; use Edit for other files."],
    ["both cell_id and cell_number", { notebook_path: "a.ipynb", cell_id: "calc", cell_number: 1, new_source: "x" }, "Give cell_id or cell_number, not both."],
    ["replace without a cell", { notebook_path: "a.ipynb", new_source: "x" }, 'edit_mode "replace" needs the cell: give its cell_id or its cell_number (counting from 0).'],
    ["an unknown id", { notebook_path: "a.ipynb", cell_id: "nope", new_source: "x" }, 'No cell has the id "nope" in this notebook; its cell ids are: intro, calc.'],
    ["a number past the end", { notebook_path: "a.ipynb", cell_number: 2, new_source: "x" }, "cell_number 2 is out of range: the notebook has 2 cells, numbered 0 to 1."],
    ["an insert past the end", { notebook_path: "a.ipynb", cell_number: 3, new_source: "x", edit_mode: "insert" }, "cell_number 3 is out of range: the notebook has 2 cells, numbered 0 to 1 (insert takes 0 to 2)."],
  ];
  for (const [label, input, message] of refusals) {
    test(`refuses ${label}, leaving the file alone`, async () => {
      using workspace = makeWorkspace();
      const path = workspace.file("a.ipynb", jupyter(canonical));
      expect(await workspace.run("NotebookEdit", input, { tools })).toEqual({ text: message, isError: true });
      expect(await Bun.file(path).text()).toBe(jupyter(canonical));
    });
  }

  test("refuses files that are not nbformat 4 notebooks", async () => {
    using workspace = makeWorkspace();
    const path = workspace.file("old.ipynb", JSON.stringify({ nbformat: 3, worksheets: [], cells: [] }));
    expect(await workspace.run("NotebookEdit", { notebook_path: path, new_source: "x", edit_mode: "insert" }, { tools })).toEqual({
      text: `${path} is nbformat 3; NotebookEdit edits nbformat 4 notebooks only.`,
      isError: true,
    });
    const broken = workspace.file("broken.ipynb", "{ not json");
    const result = await workspace.run("NotebookEdit", { notebook_path: broken, new_source: "x", edit_mode: "insert" }, { tools });
    expect(result.isError).toBe(true);
    expect(result.text).toStartWith(`${broken} is not valid JSON (`);
  });

  test("stays inside the workspace and out of read-only sessions", async () => {
    using workspace = makeWorkspace();
    using outside = makeWorkspace("outside-");
    const foreign = outside.file("x.ipynb", jupyter(canonical));
    const escaped = await workspace.run("NotebookEdit", { notebook_path: foreign, cell_number: 0, new_source: "x" }, { tools });
    expect(escaped.isError).toBe(true);
    expect(escaped.text).toContain("which is outside the workspace roots");
    workspace.file("a.ipynb", jupyter(canonical));
    const readOnly = await workspace.run(
      "NotebookEdit",
      { notebook_path: "a.ipynb", cell_number: 0, new_source: "x" },
      { tools, permissions: { mode: "readOnly", allow: [], deny: [] } },
    );
    expect(readOnly).toEqual({ text: "Permission denied for NotebookEdit: the session is read-only and this call may write.", isError: true });
    expect(await Bun.file(foreign).text()).toBe(jupyter(canonical));
  });
});
