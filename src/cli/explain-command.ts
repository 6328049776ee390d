/** `toolpool explain NAME [--session ID]`: why a tool is or is not in a session's tools array. */
import type { Explanation } from "../protocol/explain.ts";
import { Method } from "../protocol/method-names.ts";
import { withClient, type ClientCommandOptions } from "./commands.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";

const MARK = { pass: "✓", blocked: "✗", note: "·" } as const;

export function explain(options: ClientCommandOptions, name: string | undefined, session: string | undefined): Promise<number> {
  if (!name) throw new UsageError("usage: toolpool explain NAME [--session ID] [--json]");
  return withClient(options, async (client) => {
    // Without --session: a fresh session with the daemon's defaults on this connection, so the
    // answer says what a new agent would get (core Read in the array, which tools wait deferred).
    const fresh = session ? undefined : (await client.session({ clientName: "toolpool explain" })).sessionId;
    const result = await client.request(Method.Explain, { name, sessionId: session ?? fresh! });
    options.out(options.json ? JSON.stringify({ ...result, ...(fresh && { defaults: true }) }) : formatExplanation(result, fresh !== undefined));
    return ExitCode.Ok;
  });
}

export function formatExplanation(result: Explanation, defaults = false): string {
  const where = defaults ? "a new session with the daemon's defaults" : result.session ? `session ${result.session}` : "no session";
  const lines = [`${result.name} (${where}): ${result.summary}`];
  for (const decision of result.decisions) lines.push(`  ${MARK[decision.verdict]} ${decision.step.padEnd(12)} ${decision.reason}`);
  // The summary says it for plain names; for an mcp__ name the server step speaks first: say it here.
  if (result.didYouMean?.length && !result.summary.includes("did you mean")) lines.push(`  did you mean: ${result.didYouMean.join(", ")}?`);
  lines.push(`  in the tools array: ${result.inToolsArray ? "yes" : "no"}; callable: ${result.callable ? "yes" : "no"}`);
  return lines.join("\n");
}
