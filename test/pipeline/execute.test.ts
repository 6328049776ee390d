/** The execution pipeline: every way a call can end, each as a result, never a throw. */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { DEFAULT_PERMISSIONS, type PermissionSettings } from "../../src/permissions/rules.ts";
import { assemblePool } from "../../src/pool/assemble.ts";
import { buildTool, type BuiltinToolDefinition } from "../../src/tool/build-tool.ts";
import { executeTool, type ExecuteOptions } from "../../src/pipeline/execute.ts";
import { errorResult, textResult, type ToolResult } from "../../src/tool/result.ts";
import type { Tool, ToolContext } from "../../src/tool/tool.ts";

function context(signal = new AbortController().signal): ToolContext {
  return { signal, sessionId: "s", workspaceRoots: ["/tmp"], cwd: "/tmp", sessionState: new Map() };
}

const probeSchema = z.strictObject({ text: z.string(), count: z.number().int().default(1) });
type ProbeOptions = Partial<Omit<BuiltinToolDefinition<typeof probeSchema>, "call" | "inputSchema">> & {
  behaviour?: (signal: AbortSignal) => Promise<ToolResult>;
};

/** A tool that records its calls; `behaviour` decides what a call does. */
function probe({ behaviour, ...rest }: ProbeOptions = {}) {
  const calls: Array<{ input: z.infer<typeof probeSchema>; signal: AbortSignal }> = [];
  const tool = buildTool({
    name: "Probe",
    description: "Records calls.",
    inputSchema: probeSchema,
    ...rest,
    async call(input, { signal }) {
      calls.push({ input, signal });
      return behaviour ? behaviour(signal) : textResult(`got ${input.text} x${input.count}`);
    },
  });
  return { tool, calls };
}

const never = () => new Promise<ToolResult>(() => {});

function run(tool: Tool, input: unknown, options: Partial<ExecuteOptions> & { signal?: AbortSignal; permissions?: PermissionSettings } = {}, name = tool.name) {
  const pool = assemblePool({ builtins: [tool], mcpTools: [] });
  return executeTool(name, input, context(options.signal), {
    lookup: pool.get,
    permissions: options.permissions ?? DEFAULT_PERMISSIONS,
    ...(options.defaultTimeoutMs !== undefined && { defaultTimeoutMs: options.defaultTimeoutMs }),
    ...(options.killSwitch && { killSwitch: options.killSwitch }),
  });
}

describe("executeTool", () => {
  test("a good call gets the validated input (defaults applied) and its result", async () => {
    const { tool, calls } = probe();
    expect(await run(tool, { text: "hi" })).toEqual(textResult("got hi x1"));
    expect(calls.map((call) => call.input)).toEqual([{ text: "hi", count: 1 }]);
  });

  test("aliases reach the tool", async () => {
    const { tool } = probe({ aliases: ["OldProbe"] });
    expect(await run(tool, { text: "a" }, {}, "OldProbe")).toEqual(textResult("got a x1"));
  });

  test("unknown tool, disabled tool and kill switch never call anything", async () => {
    const { tool, calls } = probe();
    const disabled = probe({ isEnabled: () => false });
    expect(await run(tool, { text: "a" }, {}, "Nope")).toEqual(errorResult('No tool named "Nope" is available. Use one of the tools you were given.'));
    expect(await run(disabled.tool, { text: "a" })).toEqual(errorResult("Probe is not enabled in this daemon."));
    expect(await run(tool, { text: "a" }, { killSwitch: (target) => (target.name === "Probe" ? "incident 42" : undefined) })).toEqual(
      errorResult("Probe is switched off: incident 42"),
    );
    expect([calls.length, disabled.calls.length]).toEqual([0, 0]);
  });

  test("invalid input, validateInput and permission refusals never call the tool", async () => {
    const invalid = probe();
    const rejected = probe({ validateInput: async () => "text must not be shouted" });
    const denied = probe({ checkPermissions: async () => ({ behavior: "deny", message: "not today" }) });
    const ruled = probe();
    expect((await run(invalid.tool, { count: 2 })).content).toEqual([
      { type: "text", text: "Invalid input for Probe:\n- text: Invalid input: expected string, received undefined\nRewrite the input so it satisfies the tool's input schema, then call it again." },
    ]);
    expect(await run(rejected.tool, { text: "A" })).toEqual(errorResult("text must not be shouted"));
    expect(await run(denied.tool, { text: "a" })).toEqual(errorResult("Permission denied for Probe: not today"));
    expect(await run(ruled.tool, { text: "a" }, { permissions: { mode: "default", allow: [], deny: ["Probe"] } })).toEqual(
      errorResult('Permission denied for Probe: denied by the rule "Probe".'),
    );
    expect([invalid, rejected, denied, ruled].map((entry) => entry.calls.length)).toEqual([0, 0, 0, 0]);
  });

  test("a tool that ignores its signal is abandoned at its timeout, and its signal fires", async () => {
    const { tool, calls } = probe({ timeoutMs: 20, behaviour: never });
    expect(await run(tool, { text: "a" })).toEqual(errorResult("Probe timed out after 20 ms and was stopped."));
    expect(calls[0]?.signal.aborted).toBe(true);
  });

  test("the pipeline default timeout applies when the tool declares none", async () => {
    const { tool } = probe({ behaviour: never });
    expect(await run(tool, { text: "a" }, { defaultTimeoutMs: 10 })).toEqual(errorResult("Probe timed out after 10 ms and was stopped."));
  });

  test("cancellation mid-call answers at once and aborts the tool's signal", async () => {
    const controller = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { tool, calls } = probe({
      behaviour: () => {
        started();
        return never();
      },
    });
    const pending = run(tool, { text: "a" }, { signal: controller.signal });
    await running;
    controller.abort();
    expect(await pending).toEqual(errorResult("Probe was cancelled."));
    expect(calls[0]?.signal.aborted).toBe(true);
  });

  test("a call cancelled before it starts is never made", async () => {
    const controller = new AbortController();
    controller.abort();
    const { tool, calls } = probe();
    expect(await run(tool, { text: "a" }, { signal: controller.signal })).toEqual(errorResult("Probe was cancelled before it started."));
    expect(calls).toHaveLength(0);
  });

  test("a throwing tool becomes an error result", async () => {
    const { tool } = probe({ behaviour: async () => Promise.reject(new Error("disk on fire")) });
    expect(await run(tool, { text: "a" })).toEqual(errorResult("Probe failed: disk on fire"));
  });

  test("results are capped at the tool's maxResultSizeChars", async () => {
    const { tool } = probe({ maxResultSizeChars: 10, behaviour: async () => textResult("x".repeat(25)) });
    const result = await run(tool, { text: "a" });
    expect(result.content).toEqual([
      { type: "text", text: "x".repeat(10) },
      { type: "text", text: "\n[toolpool: output truncated — showing 10 of 25 characters. Ask for a narrower range or a filtered result to see the rest.]" },
    ]);
  });
});
