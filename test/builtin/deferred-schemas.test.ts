/**
 * Pins what the model sees of the deferred and gated built-ins (name and wire schema), checks their
 * descriptions and capabilities, and which of them `builtinTools()` lists in the running tier.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { buildInfo } from "../../src/build-info.ts";
import { createCronTools } from "../../src/builtin/cron-tools.ts";
import { builtinTools } from "../../src/builtin/list.ts";
import { notebookEditTool } from "../../src/builtin/notebook-edit.ts";
import { createRemoteTriggerTool } from "../../src/builtin/remote-trigger.ts";
import { todoWriteTool } from "../../src/builtin/todo-write.ts";
import { createWebFetchTool } from "../../src/builtin/web-fetch.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { makeStateDir, openService } from "../cron/fixture.ts";
import { ManualClock } from "../cron/manual-clock.ts";

const stateDir = makeStateDir();
const cron = openService(stateDir.path, new ManualClock("2026-01-01T00:00:00Z"));
afterAll(() => {
  cron.close();
  stateDir[Symbol.dispose]();
});
const triggers = () => ({ deploy: { url: "https://example.com/hook", method: "POST" as const, headers: {} } });
const TOOLS: readonly Tool[] = [
  createWebFetchTool(),
  notebookEditTool,
  todoWriteTool,
  ...createCronTools(cron.scheduler),
  createRemoteTriggerTool({ triggers }),
];

describe("deferred built-in wire schemas", () => {
  for (const tool of TOOLS) {
    test(`${tool.name} schema`, () => {
      expect(JSON.stringify({ name: tool.name, input_schema: tool.inputJSONSchema }, null, 2)).toMatchSnapshot();
    });
  }

  test("all are deferred; descriptions are ASCII prose; every property is described; no extra properties", () => {
    for (const tool of TOOLS) {
      const properties = tool.inputJSONSchema.properties as Record<string, { description?: string }>;
      const undescribed = Object.entries(properties).flatMap(([name, property]) => (typeof property.description === "string" ? [] : [name]));
      expect({
        tool: tool.name,
        deferred: tool.shouldDefer,
        ascii: /^[\x20-\x7e\n]*$/.test(tool.description),
        long: tool.description.length > 200,
        undescribed,
        closed: tool.inputJSONSchema.additionalProperties,
      }).toEqual({ tool: tool.name, deferred: true, ascii: true, long: true, undescribed: [], closed: false });
    }
  });

  test("capabilities: only what cannot change anything is read-only", () => {
    const capabilities = Object.fromEntries(TOOLS.map((tool) => [tool.name, { readOnly: tool.isReadOnly({}), concurrent: tool.isConcurrencySafe({}) }]));
    expect(capabilities).toEqual({
      WebFetch: { readOnly: true, concurrent: true },
      NotebookEdit: { readOnly: false, concurrent: false },
      TodoWrite: { readOnly: true, concurrent: false },
      CronCreate: { readOnly: false, concurrent: false },
      CronList: { readOnly: true, concurrent: true },
      CronDelete: { readOnly: false, concurrent: false },
      RemoteTrigger: { readOnly: false, concurrent: false },
    });
  });
});

describe("builtinTools() in this tier", () => {
  test("WebFetch, NotebookEdit and TodoWrite are ungated; cron and RemoteTrigger follow their flags and need their dependency", () => {
    const features = buildInfo().features;
    const names = (tools: Tool[]) => tools.map((tool) => tool.name).sort();
    const withDependencies = names(builtinTools({ cronScheduler: cron.scheduler, remoteTriggers: triggers }));
    const expected = ["Bash", "Edit", "Glob", "Grep", "NotebookEdit", "Read", "TodoWrite", "WebFetch", "Write"];
    if (features.includes("PROACTIVE")) expected.push("Sleep");
    const withoutDependencies = [...expected].sort();
    if (features.includes("AGENT_TRIGGERS")) expected.push("CronCreate", "CronDelete", "CronList");
    if (features.includes("AGENT_TRIGGERS_REMOTE")) expected.push("RemoteTrigger");
    expect(withDependencies).toEqual(expected.sort());
    expect(names(builtinTools())).toEqual(withoutDependencies);
  });
});
