/**
 * The explicit list of this binary's built-in tools. Gated tools are required inside their
 * `feature()` branch so that a tier built without the flag contains none of their code.
 */
import { feature } from "bun:bundle";
import type { Tool } from "../tool/tool.ts";
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { readTool } from "./read.ts";
import { writeTool } from "./write.ts";

export function builtinTools(): Tool[] {
  const tools: Tool[] = [bashTool, readTool, writeTool, editTool, globTool, grepTool];
  if (feature("PROACTIVE")) {
    tools.push((require("./sleep.ts") as typeof import("./sleep.ts")).sleepTool);
  }
  return tools;
}
