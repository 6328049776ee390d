/**
 * A Jupyter notebook (nbformat 4) as text, edited surgically: a replaced cell has only its `source`
 * (and, for code, its stale `outputs` and `execution_count`) rewritten; an inserted or deleted cell
 * touches only its own place in the `cells` array. Every other byte stays as it was, whatever layout
 * wrote the file. New text is laid out like the file around it (Jupyter's 1-space indent, or any
 * other, or none), and the result is checked by parsing it against the intended edit.
 */
import { arrayElements, indentOfLine, objectMembers, valueSpanAt, type Span } from "./json-spans.ts";

export type CellType = "code" | "markdown";
export type EditMode = "replace" | "insert" | "delete";

export type NotebookCell = Record<string, unknown> & { cell_type: string; source: string | string[]; id?: string };

export interface Notebook {
  text: string;
  cells: NotebookCell[];
  /** Whether cells carry ids (nbformat 4.5+): inserted cells then get one too. */
  usesCellIds: boolean;
  /** One level of indentation in this file; "" for a file written on one line. */
  unit: string;
  /** The file's line break, so new lines in a CRLF file are CRLF too. */
  newline: "\n" | "\r\n";
  cellsSpan: Span;
  cellSpans: Span[];
}

export interface NotebookEditRequest {
  mode: EditMode;
  /** replace / delete: the cell's index. insert: the index the new cell will have. */
  index: number;
  source: string;
  /** The new type (insert, or a replace that changes the type). */
  cellType?: CellType;
  /** The id an inserted cell gets when the notebook uses ids. */
  newCellId: string;
}

export class NotebookFormatError extends Error {
  override readonly name = "NotebookFormatError";
}

/** Reads a notebook's text; a message the model can act on when it is not an nbformat 4 notebook. */
export function parseNotebook(text: string, displayPath: string): Notebook {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new NotebookFormatError(`${displayPath} is not valid JSON (${(error as Error).message}), so it is not a notebook NotebookEdit can change.`);
  }
  if (!isRecord(value) || !Array.isArray(value.cells)) throw new NotebookFormatError(`${displayPath} has no "cells" array; it is not a Jupyter notebook.`);
  if (value.nbformat !== 4) {
    throw new NotebookFormatError(`${displayPath} is nbformat ${String(value.nbformat)}; NotebookEdit edits nbformat 4 notebooks only.`);
  }
  const cells = value.cells as unknown[];
  cells.forEach((cell, index) => {
    if (!isRecord(cell) || typeof cell.cell_type !== "string" || !isSource(cell.source)) {
      throw new NotebookFormatError(`${displayPath}: cell ${index} is malformed (it needs a cell_type and a source).`);
    }
  });
  const root = valueSpanAt(text, 0);
  const cellsMember = objectMembers(text, root).find((member) => member.key === "cells");
  if (!cellsMember) throw new NotebookFormatError(`${displayPath} has no "cells" array; it is not a Jupyter notebook.`);
  const firstKey = valueSpanAt(text, root.start + 1).start;
  const onOwnLine = text.slice(root.start + 1, firstKey).includes("\n");
  const minor = typeof value.nbformat_minor === "number" ? value.nbformat_minor : 0;
  const typed = cells as NotebookCell[];
  return {
    text,
    cells: typed,
    usesCellIds: minor >= 5 || typed.some((cell) => typeof cell.id === "string"),
    unit: onOwnLine ? indentOfLine(text, firstKey) || " " : "",
    newline: text.includes("\r\n") ? "\r\n" : "\n",
    cellsSpan: cellsMember.value,
    cellSpans: arrayElements(text, cellsMember.value),
  };
}

interface TextEdit extends Span {
  replacement: string;
}

/** The notebook's new text after one edit, and the cell as it now is (for delete: as it was). */
export function editNotebook(notebook: Notebook, request: NotebookEditRequest): { text: string; cell: NotebookCell } {
  const { edits, cell, expected } = planEdit(notebook, request);
  let text = notebook.text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    text = text.slice(0, edit.start) + edit.replacement + text.slice(edit.end);
  }
  // A guard on the scanner, not on the model: the file is only written if it says what was meant.
  const reparsed = JSON.parse(text.replace(/^\uFEFF/, "")) as { cells: unknown };
  if (!Bun.deepEquals(reparsed.cells, expected)) {
    throw new Error("the edited notebook did not match the intended change, so the file was left unchanged");
  }
  return { text, cell };
}

function planEdit(notebook: Notebook, request: NotebookEditRequest) {
  const { text, cells, cellSpans } = notebook;
  const expected = structuredClone(cells);
  const span = cellSpans[request.index];
  const original = cells[request.index];
  if (request.mode === "delete") {
    if (!span || !original) throw new RangeError(`no cell ${request.index}`);
    expected.splice(request.index, 1);
    return { edits: [deleteElement(notebook, request.index)], cell: original, expected };
  }
  if (request.mode === "insert") {
    const cell = newCell(request.cellType ?? "code", request.source, notebook.usesCellIds ? request.newCellId : undefined);
    expected.splice(request.index, 0, cell);
    return { edits: [insertElement(notebook, request.index, cell)], cell, expected };
  }
  if (!span || !original) throw new RangeError(`no cell ${request.index}`);
  const source = sourceLike(original.source, request.source);
  if (request.cellType !== undefined && request.cellType !== original.cell_type) {
    const cell = newCell(request.cellType, request.source, original.id, original.metadata, Array.isArray(original.source));
    expected[request.index] = cell;
    return { edits: [{ ...span, replacement: serialize(cell, notebook, indentOfLine(text, span.start)) }], cell, expected };
  }
  // Same type: rewrite the source, and for code the outputs and count that no longer match it.
  const changes: Record<string, unknown> = { source };
  if (original.cell_type === "code") Object.assign(changes, { outputs: [], execution_count: null });
  const edits: TextEdit[] = [];
  const cell: NotebookCell = { ...original, source };
  for (const member of objectMembers(text, span)) {
    if (!Object.hasOwn(changes, member.key)) continue;
    const value = changes[member.key];
    Object.assign(cell, { [member.key]: value });
    edits.push({ ...member.value, replacement: serialize(value, notebook, indentOfLine(text, member.value.start)) });
  }
  expected[request.index] = cell;
  return { edits, cell, expected };
}

function insertElement(notebook: Notebook, index: number, cell: NotebookCell): TextEdit {
  const { text, unit, newline, cellSpans, cellsSpan } = notebook;
  const first = cellSpans[0];
  if (!first) {
    const keyIndent = indentOfLine(text, cellsSpan.start);
    const element = serialize(cell, notebook, keyIndent + unit);
    const inner = unit === "" ? element : `${newline}${keyIndent}${unit}${element}${newline}${keyIndent}`;
    return { ...cellsSpan, replacement: `[${inner}]` };
  }
  const elementIndent = indentOfLine(text, first.start);
  const second = cellSpans[1];
  const separator = second ? text.slice(first.end, second.start) : unit === "" ? "," : `,${newline}${elementIndent}`;
  const serialized = serialize(cell, notebook, elementIndent);
  const before = cellSpans[index];
  if (before) return { start: before.start, end: before.start, replacement: serialized + separator };
  const last = cellSpans[cellSpans.length - 1] ?? first;
  return { start: last.end, end: last.end, replacement: separator + serialized };
}

function deleteElement(notebook: Notebook, index: number): TextEdit {
  const { cellSpans, cellsSpan } = notebook;
  const span = cellSpans[index] as Span;
  const next = cellSpans[index + 1];
  if (next) return { start: span.start, end: next.start, replacement: "" };
  const previous = cellSpans[index - 1];
  if (previous) return { start: previous.end, end: span.end, replacement: "" };
  return { ...cellsSpan, replacement: "[]" };
}

/** A cell as Jupyter writes one: keys sorted, code cells with empty outputs and no count. */
function newCell(type: CellType, source: string, id: string | undefined, metadata: unknown = {}, asLines = true): NotebookCell {
  return {
    cell_type: type,
    ...(type === "code" && { execution_count: null }),
    ...(id !== undefined && { id }),
    metadata: isRecord(metadata) ? metadata : {},
    ...(type === "code" && { outputs: [] }),
    source: asLines ? sourceLines(source) : source,
  };
}

/** The new source in the form the cell already used: a list of lines (Jupyter's) or one string. */
function sourceLike(previous: string | string[], source: string): string | string[] {
  return Array.isArray(previous) ? sourceLines(source) : source;
}

function sourceLines(source: string): string[] {
  return source === "" ? [] : source.split(/(?<=\n)/);
}

/** `value` laid out like the file around it, starting at a line indented by `indent`. */
function serialize(value: unknown, layout: Pick<Notebook, "unit" | "newline">, indent: string): string {
  if (layout.unit === "") return JSON.stringify(value);
  // JSON.stringify escapes line breaks inside strings, so every raw "\n" here is layout.
  return JSON.stringify(value, null, layout.unit).replaceAll("\n", `${layout.newline}${indent}`);
}

function isSource(value: unknown): value is string | string[] {
  return typeof value === "string" || (Array.isArray(value) && value.every((line) => typeof line === "string"));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
