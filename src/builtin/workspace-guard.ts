/**
 * The permission side of workspace confinement, shared by every file tool: the tool's own
 * `checkPermissions` refuses a path outside the roots (in every mode, bypass included, because the
 * pipeline always runs a tool's own check), and `permissionSubject` gives rules the real path.
 */
import type { PermissionDecision } from "../tool/tool.ts";
import { resolveInWorkspace, resolveRealPath, WorkspacePathError, type WorkspaceContext } from "./workspace-paths.ts";

export async function confineToWorkspace(filePath: string, context: WorkspaceContext): Promise<PermissionDecision> {
  try {
    resolveInWorkspace(filePath, context);
    return { behavior: "passthrough" };
  } catch (error) {
    if (error instanceof WorkspacePathError) return { behavior: "deny", message: error.message };
    throw error;
  }
}

/** What permission rules match: the real absolute path, so a symlink or `..` cannot dodge a deny rule. */
export function realPathSubject(filePath: string, cwd: string): string {
  return resolveRealPath(filePath, cwd);
}
