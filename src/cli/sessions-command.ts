/** `toolpool sessions`: the daemon's sessions, newest activity first — the ids `explain --session` takes. */
import { Method } from "../protocol/method-names.ts";
import type { SessionsResult } from "../protocol/sessions-result.ts";
import { withClient, type ClientCommandOptions } from "./commands.ts";
import { ExitCode } from "./exit-codes.ts";

export function sessions(options: ClientCommandOptions): Promise<number> {
  return withClient(options, async (client) => {
    const result = await client.request(Method.Sessions, {});
    options.out(options.json ? JSON.stringify(result) : formatSessions(result));
    return ExitCode.Ok;
  });
}

export function formatSessions(result: SessionsResult): string {
  if (result.sessions.length === 0) return "no sessions";
  const lines = result.sessions.map((session) => {
    const state = session.attached > 0 ? "attached" : "detached";
    const profile = session.profile ? ` profile ${session.profile}` : "";
    return `${session.id}  ${state.padEnd(8)} ${(session.clientName || "-").slice(0, 24).padEnd(24)} ${session.delivery.padEnd(8)} ${String(session.calls).padStart(5)} calls  last ${session.lastActiveAt}${profile}`;
  });
  if (result.more > 0) lines.push(`… and ${result.more} more`);
  lines.push("explain a tool for one: toolpool explain NAME --session ID");
  return lines.join("\n");
}
