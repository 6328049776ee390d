/**
 * `toolpool/sessions`: the sessions the daemon holds, most recently active first, so a person can
 * find the id `toolpool explain --session` wants. The socket is the user's own (0600 in a 0700
 * directory): whoever can ask could open any session anyway.
 */
import { Method } from "../../protocol/method-names.ts";
import { MAX_LISTED_SESSIONS, type SessionsResult } from "../../protocol/sessions-result.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";
import type { Dispatcher } from "../dispatcher.ts";

export function registerSessionsMethod(dispatcher: Dispatcher, core: Pick<ToolPoolCore, "sessions">): void {
  dispatcher.register(Method.Sessions, (): SessionsResult => {
    const all = [...core.sessions.all()].sort((a, b) => b.lastActiveAt - a.lastActiveAt);
    return {
      sessions: all.slice(0, MAX_LISTED_SESSIONS).map((session) => ({
        id: session.id,
        clientName: session.settings.clientName,
        model: session.settings.model,
        delivery: session.settings.delivery,
        attached: session.attached,
        calls: session.calls,
        lastActiveAt: new Date(session.lastActiveAt).toISOString(),
        workspaceRoots: [...session.settings.workspaceRoots],
        profile: session.settings.profile?.name ?? null,
      })),
      more: Math.max(0, all.length - MAX_LISTED_SESSIONS),
    };
  });
}
