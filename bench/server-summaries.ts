/**
 * What the `servers` announcement says each real server is for (bench/data/real-servers.json): the
 * summary line of every server, where it came from (its `instructions`, its tools' verbs and objects,
 * or its distinctive terms), and its length. Prints JSON: `servers: [{server, tools, source, chars,
 * line}]` and counts by source. Whether a line *says what the server does* is a reader's judgement;
 * `--text` prints the lines alone, one per server, to read.
 */
import { summarizeServers } from "../src/assembly/server-summaries.ts";
import { readRealCatalogs } from "./lib/real-servers.ts";

const catalogs = readRealCatalogs();
const instructions = new Map(catalogs.flatMap((catalog) => (catalog.instructions === undefined ? [] : [[catalog.server, catalog.instructions] as const])));
const summaries = summarizeServers(
  catalogs.flatMap((catalog) => catalog.tools.map((tool) => ({ server: catalog.server, tool: tool.name, description: tool.description ?? "" }))),
  instructions,
);
if (process.argv.includes("--text")) {
  for (const summary of summaries) console.log(`${summary.name} (${summary.toolCount} tools) [${summary.source}]: ${summary.description}`);
} else {
  const bySource: Record<string, number> = {};
  for (const summary of summaries) bySource[summary.source] = (bySource[summary.source] ?? 0) + 1;
  const chars = summaries.map((summary) => summary.description.length);
  console.log(
    JSON.stringify(
      {
        servers: summaries.map((summary) => ({ server: summary.name, tools: summary.toolCount, source: summary.source, chars: summary.description.length, line: summary.description })),
        count: summaries.length,
        bySource,
        maxChars: Math.max(...chars),
        totalChars: chars.reduce((sum, length) => sum + length, 0),
      },
      null,
      2,
    ),
  );
}
