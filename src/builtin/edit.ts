/**
 * Edit: exact string replacement in one file. The text to replace must be found, and found once
 * unless `replace_all` says otherwise, so an edit never lands somewhere the model did not mean.
 */
import { readableBy } from "./workspace-file.ts";
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import { errorResult, textResult } from "../tool/result.ts";
import { numberedLine, readTextFile } from "./text-file.ts";
import { confineToWorkspace, realPathSubject, realRoots, resolveInWorkspace } from "./workspace-paths.ts";
import { writeInWorkspace } from "./workspace-write.ts";
import description from "./edit.txt" with { type: "text" };

/** Edits load the whole file; past this size a Bash tool (sed, a script) is the better instrument. */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;
/** Lines of context shown around the first change, so the model can check what it did. */
const SNIPPET_CONTEXT_LINES = 3;
const SNIPPET_MAX_LINES = 30;

const inputSchema = () =>
  z.strictObject({
    file_path: z.string().describe("Absolute path of the file to change (a path relative to the working directory also works)."),
    old_string: z.string().describe("The exact text to replace, including whitespace and indentation."),
    new_string: z.string().describe("The text to put in its place (must differ from old_string)."),
    replace_all: z
      .boolean()
      .optional()
      .describe("Replace every occurrence of old_string instead of exactly one (default false)."),
  });

export const editTool = buildTool({
  name: "Edit",
  description,
  searchHint: "modify file replace text change code",
  inputSchema,
  destructive: true,
  openWorld: false,
  async validateInput({ old_string, new_string }) {
    if (old_string === new_string) return "old_string and new_string are identical, so the edit would change nothing. Give the new text in new_string.";
    return undefined;
  },
  checkPermissions: async ({ file_path }, context) => confineToWorkspace(file_path, context),
  permissionSubject: ({ file_path }, cwd) => realPathSubject(file_path, cwd),
  // Reads too: the answer shows the changed region of the file.
  access: ({ file_path }, cwd) => {
    const path = realPathSubject(file_path, cwd);
    return { reads: [path], writes: [path] };
  },
  async call({ file_path, old_string, new_string, replace_all = false }, context) {
    const path = resolveInWorkspace(file_path, context);
    const roots = realRoots(context);
    const file = await readTextFile(path, MAX_EDIT_BYTES, roots, path, readableBy(context));
    if (!file.ok && file.missing) {
      if (old_string !== "") return errorResult(`File does not exist: ${path}. To create a new file, use Write.`);
      const created = await writeInWorkspace(path, new_string, roots);
      return created.ok ? textResult(`Created ${path} with the given text.`) : errorResult(`Cannot edit: ${created.reason}`);
    }
    if (!file.ok) return errorResult(`Cannot edit: ${file.reason}`);
    if (old_string === "") {
      if (file.text !== "") return errorResult(`old_string is empty but ${path} is not: give the exact text to replace.`);
      const filled = await writeInWorkspace(path, new_string, roots);
      return filled.ok ? textResult(`Wrote the given text into the empty file ${path}.`) : errorResult(`Cannot edit: ${filled.reason}`);
    }

    const { search, replacement } = matchLineEndings(file.text, old_string, new_string);
    const count = countOccurrences(file.text, search);
    if (count === 0) {
      return errorResult(
        `old_string was not found in ${path}. It must match the file exactly, including whitespace, indentation and line breaks; Read the file and copy the text (without the line-number prefix).`,
      );
    }
    if (count > 1 && !replace_all) {
      return errorResult(
        `old_string occurs ${count} times in ${path}. Include more of the surrounding text so it matches exactly one place, or set replace_all to true to change all ${count}.`,
      );
    }
    const first = file.text.indexOf(search);
    const updated = replace_all
      ? file.text.split(search).join(replacement)
      : file.text.slice(0, first) + replacement + file.text.slice(first + search.length);
    const written = await writeInWorkspace(path, updated, roots);
    if (!written.ok) return errorResult(`Cannot edit: ${written.reason}`);
    const noun = count === 1 ? "occurrence" : "occurrences";
    return textResult(
      `Edited ${path}: replaced ${count} ${noun}.\n${snippet(updated, first, replacement.length)}`,
      { replacements: count },
    );
  },
});

/**
 * Models write `\n`; a CRLF file holds `\r\n`. When the text is only found with the file's line
 * endings, edit with those, so the file keeps one line-ending style.
 */
function matchLineEndings(text: string, oldString: string, newString: string) {
  const plain = { search: oldString, replacement: newString };
  if (!text.includes("\r\n") || !oldString.includes("\n") || text.includes(oldString)) return plain;
  const toCrlf = (value: string) => value.replace(/\r?\n/g, "\r\n");
  const crlf = toCrlf(oldString);
  return text.includes(crlf) ? { search: crlf, replacement: toCrlf(newString) } : plain;
}

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

function snippet(text: string, start: number, length: number): string {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const firstLine = text.slice(0, start).split("\n").length - 1;
  const lastLine = text.slice(0, start + length).split("\n").length - 1;
  const from = Math.max(0, firstLine - SNIPPET_CONTEXT_LINES);
  const to = Math.min(lines.length - 1, lastLine + SNIPPET_CONTEXT_LINES, from + SNIPPET_MAX_LINES - 1);
  const shown = lines.slice(from, to + 1).map((line, index) => numberedLine(from + index + 1, line.replace(/\r$/, "")));
  return ["The changed region now reads:", ...shown].join("\n");
}
