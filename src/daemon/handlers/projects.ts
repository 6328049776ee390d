/**
 * `toolpool/projects` (the project files the daemon knows, trusted or not) and
 * `toolpool/projects/rescan` (read them again, as `toolpool trust` asks after approving one).
 * Approving is not a daemon method: the user does it at the terminal, and the daemon only ever
 * reads the trust store.
 */
import { Method } from "../../protocol/method-names.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";

/** What the project methods use of the core. */
export type ProjectsCore = Pick<ToolPoolCore, "live">;

export function registerProjectMethods(dispatcher: Dispatcher, state: ProjectsCore): void {
  dispatcher.register(
    Method.Projects,
    () => ({ projects: state.live.projects() }),
  );
  dispatcher.register(
    Method.ProjectsRescan,
    async () => ({ projects: await state.live.rescanProjects() }),
  );
}
