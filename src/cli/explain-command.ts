/** `toolpool explain NAME [--session ID]`: why a tool is or is not in a session's tools array. */
import type { Explanation } from "../protocol/explain.ts";
import { Method } from "../protocol/method-names.ts";
import { withClient, type ClientCommandOptions } from "./commands.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";

const MARK = { pass: "✓", blocked: "✗", note: "·" } as const;

export function explain(options: ClientCommandOptions, name: string | undefined, session: string | undefined): Promise<number> {
  if (!name) throw new UsageError("usage: toolpool explain NAME [--session ID] [--json]");
  return withClient(options, async (client) => {
    const result = await client.request(Method.Explain, { name, ...(session && { sessionId: session }) });
    options.out(options.json ? JSON.stringify(result) : formatExplanation(result));
    return ExitCode.Ok;
  });
}

export function formatExplanation(result: Explanation): string {
  const where = result.session ? `session ${result.session}` : "no session";
  const lines = [`${result.name} (${where}): ${result.summary}`];
  for (const decision of result.decisions) lines.push(`  ${MARK[decision.verdict]} ${decision.step.padEnd(12)} ${decision.reason}`);
  lines.push(`  in the tools array: ${result.inToolsArray ? "yes" : "no"}; callable: ${result.callable ? "yes" : "no"}`);
  return lines.join("\n");
}
