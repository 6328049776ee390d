/** FIFOs, sockets and devices are refused on the open descriptor by every file tool, without blocking. */
import { describe, expect, test } from "bun:test";
import { notebookEditTool } from "../../src/builtin/notebook-edit.ts";
import { CORE_TOOLS, makeWorkspace, type Workspace } from "./fixture.ts";

function mkfifo(workspace: Workspace, name: string): string {
  const path = workspace.path(name);
  const made = Bun.spawnSync(["mkfifo", path]);
  if (made.exitCode !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
  return path;
}

describe("special files", () => {
  test("Read, Edit, Write and NotebookEdit refuse a FIFO by name; Grep skips it; none blocks", async () => {
    using workspace = makeWorkspace();
    const fifo = mkfifo(workspace, "pipe");
    const notebook = mkfifo(workspace, "pipe.ipynb");
    workspace.file("note.txt", "needle\n");
    const tools = [...CORE_TOOLS, notebookEditTool];
    const fifoText = "is a FIFO (named pipe), not a regular file; file tools do not open it";
    expect({
      read: await workspace.run("Read", { file_path: fifo }, { tools }),
      edit: await workspace.run("Edit", { file_path: fifo, old_string: "a", new_string: "b" }, { tools }),
      write: await workspace.run("Write", { file_path: fifo, content: "x" }, { tools }),
      notebook: await workspace.run("NotebookEdit", { notebook_path: notebook, new_source: "x", edit_mode: "insert" }, { tools }),
      grep: await workspace.run("Grep", { pattern: "needle" }, { tools }),
    }).toEqual({
      read: { isError: true, text: `${fifo} ${fifoText}.` },
      edit: { isError: true, text: `Cannot edit: ${fifo} ${fifoText}.` },
      write: { isError: true, text: `${fifo} exists and is not a regular file (a FIFO (named pipe)); it was left alone.` },
      notebook: { isError: true, text: `Cannot edit: ${notebook} ${fifoText}.` },
      grep: { isError: false, text: `Found 1 file\n${workspace.path("note.txt")}` },
    });
  });

  test("a Unix socket in the workspace is refused by Read", async () => {
    using workspace = makeWorkspace();
    const path = workspace.path("s.sock");
    const listener = Bun.listen({ unix: path, socket: { data() {} } });
    try {
      expect(await workspace.run("Read", { file_path: path })).toEqual({
        isError: true,
        text: `${path} is a socket, not a regular file; file tools do not open it.`,
      });
    } finally {
      listener.stop(true);
    }
  });
});
