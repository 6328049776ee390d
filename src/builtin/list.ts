/**
 * The explicit list of this binary's built-in tools. Gated tools are required inside their
 * `feature()` branch so that a tier built without the flag contains none of their code.
 */
import { feature } from "bun:bundle";
import type { CronScheduler } from "../cron/cron-scheduler.ts";
import type { Tool } from "../tool/tool.ts";
import { bashTool, createBashTool } from "./bash.ts";
import type { CommandSandbox } from "../sandbox/command-sandbox.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { notebookEditTool } from "./notebook-edit.ts";
import { readTool } from "./read.ts";
import type { RemoteTriggers } from "./remote-trigger.ts";
import { todoWriteTool } from "./todo-write.ts";
import { createWebFetchTool } from "./web-fetch.ts";
import type { WebFetchPolicy } from "./web-fetch-guard.ts";
import { writeTool } from "./write.ts";

/** What the daemon hands the tools that need more than their input. Every field is optional. */
export interface BuiltinToolOptions {
  /** `webFetch` from the config; without it WebFetch refuses every private address. */
  webFetch?: Partial<WebFetchPolicy>;
  /** The daemon's cron scheduler (AGENT_TRIGGERS tiers); without one the cron tools are left out. */
  cronScheduler?: CronScheduler;
  /** `remoteTriggers` from the config, read at each call (AGENT_TRIGGERS_REMOTE tiers); without it RemoteTrigger is left out. */
  remoteTriggers?: () => RemoteTriggers;
  /** The kernel sandbox Bash runs every command in; without one Bash runs unconfined. */
  sandbox?: CommandSandbox;
}

export function builtinTools(options: BuiltinToolOptions = {}): Tool[] {
  const bash = options.sandbox ? createBashTool({ sandbox: options.sandbox }) : bashTool;
  const tools: Tool[] = [bash, readTool, writeTool, editTool, globTool, grepTool];
  tools.push(createWebFetchTool(options.webFetch), notebookEditTool, todoWriteTool);
  if (feature("PROACTIVE")) {
    tools.push((require("./sleep.ts") as typeof import("./sleep.ts")).sleepTool);
  }
  if (feature("AGENT_TRIGGERS")) {
    const scheduler = options.cronScheduler;
    if (scheduler) tools.push(...(require("./cron-tools.ts") as typeof import("./cron-tools.ts")).createCronTools(scheduler));
  }
  if (feature("AGENT_TRIGGERS_REMOTE")) {
    const triggers = options.remoteTriggers;
    if (triggers) tools.push((require("./remote-trigger.ts") as typeof import("./remote-trigger.ts")).createRemoteTriggerTool({ triggers }));
  }
  return tools;
}
