/**
 * `toolpool/projects` (the project files the daemon knows, trusted or not) and
 * `toolpool/projects/rescan` (read them again, as `toolpool trust` asks after approving one).
 * Approving is not a daemon method: the user does it at the terminal, and the daemon only ever
 * reads the trust store.
 */
import { noParams } from "../../protocol/methods.ts";
import { Method } from "../../protocol/method-names.ts";
import { method, type Dispatcher } from "../dispatcher.ts";
import type { DaemonState } from "../state.ts";

export function registerProjectMethods(dispatcher: Dispatcher, state: DaemonState): void {
  dispatcher.register(
    Method.Projects,
    method(noParams, () => ({ projects: state.projects() })),
  );
  dispatcher.register(
    Method.ProjectsRescan,
    method(noParams, async () => ({ projects: await state.rescanProjects() })),
  );
}
