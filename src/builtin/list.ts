/**
 * The explicit list of this binary's built-in tools. Gated tools are required inside their
 * `feature()` branch so that a tier built without the flag contains none of their code.
 */
import { feature } from "bun:bundle";
import type { Tool } from "../tool/tool.ts";

export function builtinTools(): Tool[] {
  const tools: Tool[] = [];
  if (feature("PROACTIVE")) {
    tools.push((require("./sleep.ts") as typeof import("./sleep.ts")).sleepTool);
  }
  return tools;
}
