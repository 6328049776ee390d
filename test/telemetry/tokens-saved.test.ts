/** toolpool.tokens.saved: what standard delivery would send minus what was sent, counted one way. */
import { describe, expect, test } from "bun:test";
import { assembleRequest, type AssembleInput } from "../../src/assembly/assemble-request.ts";
import { createExecuteExtraTool } from "../../src/builtin/execute-extra-tool.ts";
import { createToolSearchTool } from "../../src/builtin/tool-search.ts";
import { textResult } from "../../src/tool/result.ts";
import { tokensSavedEvent } from "../../src/telemetry/tokens-saved.ts";
import { indexOf, samplePool } from "../assembly/fixtures.ts";

const pool = samplePool();
const engine = indexOf(pool);

function assemble(delivery: "proxy" | "native" | "standard", announcements: "list" | "delta" = "list") {
  const input: AssembleInput = {
    settings: { model: "claude-sonnet-4-5", provider: "anthropic", delivery, format: "anthropic", announcements },
    tools: pool.tools,
    messages: [],
    metaTools: (kind) => ({
      toolSearch: createToolSearchTool({ engine, lookup: pool.get, delivery: kind }),
      executeExtraTool: createExecuteExtraTool({ lookup: pool.get }),
    }),
  };
  return assembleRequest(input);
}

describe("tokens saved", () => {
  test("equals the standard request's tools tokens minus the deferred request's tools and announcement tokens", () => {
    const standard = assemble("standard");
    for (const delivery of ["proxy", "native"] as const) {
      const deferred = assemble(delivery);
      expect(deferred.announcement).not.toBeNull();
      const announcementTokens = Math.ceil((deferred.announcement?.text.length ?? 0) / 2.5);
      expect(tokensSavedEvent(deferred, pool.tools)).toEqual({
        saved: standard.counts.toolTokens - deferred.counts.toolTokens - announcementTokens,
        delivery,
        counter: "chars/2.5 (estimate)",
      });
    }
  });

  test("standard saves nothing; a request counted by another counter is not reported", () => {
    expect(tokensSavedEvent(assemble("standard"), pool.tools)).toEqual({ saved: 0, delivery: "standard", counter: "chars/2.5 (estimate)" });
    const tokenizer = { ...assemble("proxy"), counts: { ...assemble("proxy").counts, toolTokenCounter: "tiktoken o200k" } };
    expect(tokensSavedEvent(tokenizer, pool.tools)).toBeUndefined();
  });
});
