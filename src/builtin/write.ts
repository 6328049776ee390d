/**
 * Write: creates or overwrites one file inside the workspace, creating missing parent directories.
 * The bytes go to the resolved real path, so a symlink inside the workspace is written through and
 * one pointing outside is refused before anything is created.
 */
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import { errorResult, textResult } from "../tool/result.ts";
import { formatBytes, splitLines, statOrUndefined } from "./text-file.ts";
import { confineToWorkspace, realPathSubject, resolveInWorkspace } from "./workspace-paths.ts";
import description from "./write.txt" with { type: "text" };

const inputSchema = z.strictObject({
  file_path: z.string().describe("Absolute path of the file to write (a path relative to the working directory also works)."),
  content: z.string().describe("The complete new contents of the file."),
});

export const writeTool = buildTool({
  name: "Write",
  description,
  searchHint: "create new file overwrite save contents",
  inputSchema,
  isDestructive: () => true,
  checkPermissions: async ({ file_path }, context) => confineToWorkspace(file_path, context),
  permissionSubject: ({ file_path }, cwd) => realPathSubject(file_path, cwd),
  // The answer names the file and counts its lines, but shows none of what was there.
  access: ({ file_path }, cwd) => ({ reads: [], writes: [realPathSubject(file_path, cwd)] }),
  async call({ file_path, content }, context) {
    const path = resolveInWorkspace(file_path, context);
    const existing = await statOrUndefined(path);
    if (existing?.isDirectory()) return errorResult(`${path} is a directory; give the path of a file inside it.`);
    if (existing && !existing.isFile()) return errorResult(`${path} exists and is not a regular file; it was left alone.`);
    // The missing parents all lie below the real, in-workspace ancestor `resolveInWorkspace` found.
    await mkdir(dirname(path), { recursive: true });
    const bytes = await Bun.write(path, content);
    const lines = splitLines(content).length;
    const verb = existing ? "Overwrote" : "Created";
    return textResult(`${verb} ${path} (${lines} ${lines === 1 ? "line" : "lines"}, ${formatBytes(bytes)}).`);
  },
});
