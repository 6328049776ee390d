/**
 * How to run this same toolpool again as another process: the compiled binary is its own command;
 * from source it is the Bun runtime plus the entry script. `toolpool mcp` uses it to start a
 * daemon in the background, `toolpool service` to write it into a unit file.
 */
import { isAbsolute, resolve } from "node:path";
import { buildInfo } from "../build-info.ts";

export interface SelfCommandFacts {
  compiled: boolean;
  execPath: string;
  /** The entry script when running from source (Bun.main). */
  mainScript: string;
}

export function currentFacts(): SelfCommandFacts {
  return { compiled: buildInfo().compiled, execPath: process.execPath, mainScript: Bun.main };
}

/** The argv prefix that runs toolpool: `[binary]` or `[bun, /abs/src/main.ts]`. */
export function selfCommand(facts: SelfCommandFacts = currentFacts()): string[] {
  if (facts.compiled) return [facts.execPath];
  const script = isAbsolute(facts.mainScript) ? facts.mainScript : resolve(facts.mainScript);
  return [facts.execPath, script];
}
