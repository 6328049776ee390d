/**
 * Write: creates or overwrites one file inside the workspace, creating missing parent directories.
 * The bytes go to the resolved real path, so a symlink inside the workspace is written through and
 * one pointing outside is refused before anything is created; the write itself goes through a
 * verified directory descriptor and a temp file renamed into place (workspace-write.ts).
 */
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import { errorResult, textResult } from "../tool/result.ts";
import { formatBytes, splitLines } from "./text-file.ts";
import { confineToWorkspace, realPathSubject, realRoots, resolveInWorkspace } from "./workspace-paths.ts";
import { writeInWorkspace } from "./workspace-write.ts";
import description from "./write.txt" with { type: "text" };

const inputSchema = () =>
  z.strictObject({
    file_path: z.string().describe("Absolute path of the file to write (a path relative to the working directory also works)."),
    content: z.string().describe("The complete new contents of the file."),
  });

export const writeTool = buildTool({
  name: "Write",
  description,
  searchHint: "create new file overwrite save contents",
  inputSchema,
  destructive: true,
  openWorld: false,
  checkPermissions: async ({ file_path }, context) => confineToWorkspace(file_path, context),
  permissionSubject: ({ file_path }, cwd) => realPathSubject(file_path, cwd),
  // The answer names the file and counts its lines, but shows none of what was there.
  access: ({ file_path }, cwd) => ({ reads: [], writes: [realPathSubject(file_path, cwd)] }),
  async call({ file_path, content }, context) {
    const path = resolveInWorkspace(file_path, context);
    const written = await writeInWorkspace(path, content, realRoots(context));
    if (!written.ok) return errorResult(written.reason);
    const lines = splitLines(content).length;
    const verb = written.created ? "Created" : "Overwrote";
    return textResult(`${verb} ${path} (${lines} ${lines === 1 ? "line" : "lines"}, ${formatBytes(written.bytes)}).`);
  },
});
