/**
 * NotebookEdit: replace, insert or delete one cell of an nbformat 4 notebook inside the workspace.
 * The file is edited surgically (`notebook-document.ts`): bytes outside the changed cell stay as
 * they were, so a diff shows only the edit and notebooks written by other tools keep their layout.
 */
import { readableBy } from "./workspace-file.ts";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import { errorResult, textResult } from "../tool/result.ts";
import { editNotebook, NotebookFormatError, parseNotebook, type Notebook, type NotebookEditRequest } from "./notebook-document.ts";
import { readTextFile } from "./text-file.ts";
import { confineToWorkspace, realPathSubject, realRoots, resolveInWorkspace } from "./workspace-paths.ts";
import { writeInWorkspace } from "./workspace-write.ts";
import description from "./notebook-edit.txt" with { type: "text" };

/** Notebooks carry their outputs (images included); past this, editing belongs to Jupyter itself. */
export const MAX_NOTEBOOK_BYTES = 32 * 1024 * 1024;

const inputSchema = () =>
  z.strictObject({
    notebook_path: z.string().describe("Absolute path of the .ipynb file (a path relative to the working directory also works)."),
    cell_id: z.string().min(1).optional().describe("The id of the cell to change (for insert: the new cell goes after it)."),
    cell_number: z.number().int().min(0).optional().describe("The position of the cell, counting from 0 (for insert: the position the new cell takes)."),
    new_source: z.string().describe("The new source of the cell, as one string with line breaks."),
    cell_type: z.enum(["code", "markdown"]).optional().describe("The cell's type: required to change a cell's type; for insert the default is code."),
    edit_mode: z.enum(["replace", "insert", "delete"]).optional().describe("replace (default), insert or delete."),
  });

type Input = z.output<ReturnType<typeof inputSchema>>;

export const notebookEditTool = buildTool({
  name: "NotebookEdit",
  description,
  searchHint: "jupyter ipynb notebook cell replace insert delete",
  inputSchema,
  shouldDefer: true,
  // Destructive only for edit_mode "delete": no constant holds, so no hint (the cautious default).
  openWorld: false,
  async validateInput({ notebook_path, cell_id, cell_number, edit_mode = "replace" }) {
    if (!notebook_path.toLowerCase().endsWith(".ipynb")) {
      return `${notebook_path} is not a .ipynb file. NotebookEdit changes Jupyter notebooks; use Edit for other files.`;
    }
    if (cell_id !== undefined && cell_number !== undefined) return "Give cell_id or cell_number, not both.";
    if (edit_mode !== "insert" && cell_id === undefined && cell_number === undefined) {
      return `edit_mode "${edit_mode}" needs the cell: give its cell_id or its cell_number (counting from 0).`;
    }
    return undefined;
  },
  checkPermissions: async ({ notebook_path }, context) => confineToWorkspace(notebook_path, context, "notebook_path"),
  permissionSubject: ({ notebook_path }, cwd) => realPathSubject(notebook_path, cwd),
  // Reads too: the answer shows the cell as it now is.
  access: ({ notebook_path }, cwd) => {
    const path = realPathSubject(notebook_path, cwd);
    return { reads: [path], writes: [path] };
  },
  async call(input, context) {
    const path = resolveInWorkspace(input.notebook_path, context, "notebook_path");
    const roots = realRoots(context);
    const file = await readTextFile(path, MAX_NOTEBOOK_BYTES, roots, path, readableBy(context));
    if (!file.ok) return errorResult(`Cannot edit: ${file.reason}`);
    let notebook: Notebook;
    try {
      notebook = parseNotebook(file.text, path);
    } catch (error) {
      if (error instanceof NotebookFormatError) return errorResult(error.message);
      throw error;
    }
    const request = editRequest(input, notebook);
    if (typeof request === "string") return errorResult(request);
    const { text, cell } = editNotebook(notebook, request);
    const written = await writeInWorkspace(path, text, roots);
    if (!written.ok) return errorResult(`Cannot edit: ${written.reason}`);
    return textResult(describeEdit(request, cell.id, path), { mode: request.mode, index: request.index, cell });
  },
});

/** Where the edit lands, or why it cannot: the message names what the notebook does have. */
function editRequest(input: Input, notebook: Notebook): NotebookEditRequest | string {
  const mode = input.edit_mode ?? "replace";
  const count = notebook.cells.length;
  let index: number;
  if (input.cell_id !== undefined) {
    const found = notebook.cells.findIndex((cell) => cell.id === input.cell_id);
    if (found === -1) {
      const ids = notebook.cells.flatMap((cell) => (typeof cell.id === "string" ? [cell.id] : []));
      const known = ids.length > 0 ? `its cell ids are: ${ids.slice(0, 50).join(", ")}` : "its cells have no ids; use cell_number";
      return `No cell has the id "${input.cell_id}" in this notebook; ${known}.`;
    }
    index = mode === "insert" ? found + 1 : found;
  } else {
    index = input.cell_number ?? 0;
  }
  const limit = mode === "insert" ? count : count - 1;
  if (index > limit) {
    return count === 0 && mode !== "insert"
      ? "The notebook has no cells. Use edit_mode insert to add one."
      : `cell_number ${index} is out of range: the notebook has ${count} cells, numbered 0 to ${count - 1}${mode === "insert" ? ` (insert takes 0 to ${count})` : ""}.`;
  }
  const ids = new Set(notebook.cells.map((cell) => cell.id));
  let newCellId = randomUUID().replaceAll("-", "").slice(0, 8);
  while (ids.has(newCellId)) newCellId = randomUUID().replaceAll("-", "").slice(0, 8);
  return {
    mode,
    index,
    source: input.new_source,
    newCellId,
    ...(input.cell_type !== undefined && { cellType: input.cell_type }),
  };
}

function describeEdit(request: NotebookEditRequest, id: string | undefined, path: string): string {
  const named = `cell ${request.index}${id !== undefined ? ` (id ${id})` : ""}`;
  if (request.mode === "delete") return `Deleted ${named} from ${path}.`;
  if (request.mode === "insert") return `Inserted a new ${request.cellType ?? "code"} ${named} into ${path}.`;
  const retyped = request.cellType !== undefined ? ` as a ${request.cellType} cell` : "";
  return `Replaced the source of ${named}${retyped} in ${path}.`;
}
