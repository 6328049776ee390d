/**
 * `toolpool.tokens.saved` for one assembled request: what `standard` delivery would have sent (every
 * enabled tool in full) minus what was sent (the tools array plus the announcement), both counted by
 * the same counter the assembly used (chars/2.5, the daemon's only one today), so the metric carries
 * the counter's name and says it is an estimate.
 */
import { charsPerTokenCounter, countDefinitionTokens } from "../deferral/auto-threshold.ts";
import { isMetaToolName } from "../deferral/meta-tools.ts";
import { baseWireTool } from "../assembly/wire-format.ts";
import type { Tool } from "../tool/tool.ts";
import type { TokensEvent } from "./metrics.ts";

export interface AssembledFacts {
  format: "anthropic" | "openai";
  delivery: { delivery: string };
  announcement: { text: string } | null;
  counts: { toolTokens: number; toolTokenCounter: string };
}

/** Undefined when the assembly counted with another counter: two counters' figures do not subtract. */
export function tokensSavedEvent(assembled: AssembledFacts, poolTools: readonly Tool[]): TokensEvent | undefined {
  const counter = charsPerTokenCounter;
  if (assembled.counts.toolTokenCounter !== counter.label) return undefined;
  const delivery = assembled.delivery.delivery;
  const label = `${counter.label} (estimate)`;
  if (delivery === "standard") return { saved: 0, delivery, counter: label };
  const everything = poolTools.filter((tool) => tool.isEnabled() && !isMetaToolName(tool.name)).map((tool) => baseWireTool(tool, assembled.format));
  const standard = countDefinitionTokens(JSON.stringify(everything), counter);
  const sent = assembled.counts.toolTokens + (assembled.announcement ? counter.count(assembled.announcement.text) : 0);
  return { saved: standard - sent, delivery, counter: label };
}
