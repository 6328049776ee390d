import type { SearchDocument } from "../../src/search/types.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";

/** A small pool shaped like a real one: built-ins with aliases and hints, and two MCP servers. */
export const POOL: readonly SearchDocument[] = [
  { name: "Read", description: "Reads a file from the local filesystem.", parameters: [{ name: "file_path" }] },
  {
    name: "Bash",
    aliases: ["Shell"],
    description: "Executes a shell command and returns its output.",
    parameters: [{ name: "command", description: "The command to run" }],
  },
  {
    name: "CronCreate",
    searchHint: "schedule a recurring job on a timer",
    description: "Creates a scheduled task.",
  },
  { name: "NotebookEdit", searchHint: "jupyter notebook cells", description: "Replaces the contents of a cell." },
  {
    name: "mcp__github__create_issue",
    server: "github",
    rawToolName: "create_issue",
    description: "Create a new issue in a GitHub repository.",
    parameters: [
      { name: "title", description: "Issue title", required: true },
      { name: "labels", description: "Labels to apply", values: ["bug", "enhancement"] },
    ],
  },
  {
    name: "mcp__github__list_issues",
    server: "github",
    rawToolName: "list_issues",
    description: "List issues in a GitHub repository, filtered by state.",
  },
  {
    name: "mcp__github__search_code",
    server: "github",
    rawToolName: "search_code",
    description: "Search for code across GitHub repositories.",
  },
  {
    name: "mcp__slack__send_message",
    server: "slack",
    rawToolName: "send_message",
    description: "Send a message to a Slack channel.",
    serverDescription: "Team chat for workspaces",
  },
  {
    name: "mcp__slack__list_channels",
    server: "slack",
    rawToolName: "list_channels",
    description: "List the channels of a Slack workspace.",
  },
  {
    name: "mcp__weather__get_forecast",
    server: "weather",
    rawToolName: "get_forecast",
    description: "天气预报查询，返回未来几天的天气。Weather forecast for a city.",
  },
];

export function indexOf(docs: readonly SearchDocument[] = POOL): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const doc of docs) index.add(doc);
  return index;
}

export function names(index: ToolSearchIndex, query: string, maxResults = 5): string[] {
  return index.query(query, { maxResults }).matches.map((match) => match.name);
}
