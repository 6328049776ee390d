/** `toolpool flags`: every runtime flag, its value, where the value came from, and the payloads' age. */
import type { FlagsResult } from "../protocol/methods.ts";
import { Method } from "../protocol/method-names.ts";
import { withClient, type ClientCommandOptions } from "./commands.ts";
import { ExitCode } from "./exit-codes.ts";
import { formatDuration } from "./format.ts";

export function flags(options: ClientCommandOptions): Promise<number> {
  return withClient(options, async (client) => {
    const report = await client.request(Method.Flags);
    options.out(options.json ? JSON.stringify(report) : formatFlags(report));
    return ExitCode.Ok;
  });
}

export function formatFlags(report: FlagsResult): string {
  const width = Math.max(...report.flags.map((flag) => flag.key.length));
  const lines = [`runtime flags (${report.implementation})`];
  for (const flag of report.flags) {
    const value = JSON.stringify(flag.value);
    const origin = flag.compiled ? flag.source : `ignored: needs ${flag.requires ?? "a feature"} (not compiled)`;
    const age = flag.ageMs === null || flag.ageMs === undefined ? "" : `, ${formatDuration(flag.ageMs)} old`;
    lines.push(`  ${flag.key.padEnd(width)}  ${value}  [${origin}${age}]`);
  }
  if (report.payloads.length === 0) lines.push("  payloads: none configured — every value is an embedded default");
  for (const payload of report.payloads) {
    const age = payload.ageMs === null || payload.ageMs === undefined ? "" : `, ${formatDuration(payload.ageMs)} old`;
    lines.push(`  payload ${payload.source} ${payload.location}: ${payload.state}${age}${payload.lastError ? ` (last error: ${payload.lastError})` : ""}`);
  }
  return lines.join("\n");
}
