/** An in-process daemon with the tools the example scripts use (Sleep is deferred in every tier here). */
import { builtinTools } from "../../src/builtin/list.ts";
import { sleepTool } from "../../src/builtin/sleep.ts";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon-harness.ts";

export function startExampleDaemon(): Promise<TestDaemon> {
  const builtins = builtinTools().filter((tool) => tool.name !== sleepTool.name);
  return startTestDaemon({ builtins: [...builtins, sleepTool] });
}

/** Names in an assembled tools array, whatever its format. */
export function toolNames(tools: readonly unknown[]): string[] {
  return tools.map((tool) => {
    const entry = tool as { name?: string; function?: { name: string } };
    return entry.function?.name ?? entry.name ?? "?";
  });
}
