/**
 * The core without a wire (like the MCP SDK's InMemoryTransport, one level down): sessions, the
 * pool, search and the call pipeline driven directly, in milliseconds. Each path these tests cover
 * also has an end-to-end test over the real socket and binary.
 */
import { buildInfo } from "../../src/build-info.ts";
import { parseConfig } from "../../src/config/load.ts";
import { ToolPoolCore } from "../../src/core/tool-pool-core.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import type { SessionRequest } from "../../src/session/settings.ts";
import type { Session } from "../../src/session/session.ts";
import type { ToolResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";
import type { RuntimeFlags } from "../../src/flags/runtime-flags.ts";

export interface CoreHarness {
  core: ToolPoolCore;
  open(request?: SessionRequest): Session;
  call(session: Session, name: string, input: unknown): Promise<ToolResult>;
}

export function coreHarness(options: { builtins: readonly Tool[]; config?: Record<string, unknown>; flags?: RuntimeFlags }): CoreHarness {
  const core = new ToolPoolCore({
    config: parseConfig(options.config ?? {}, "test"),
    configSource: { path: null, explicit: false },
    builtins: options.builtins,
    logger: silentLogger,
    info: buildInfo(),
    usageDatabasePath: ":memory:",
    ...(options.flags && { flags: options.flags }),
  });
  return {
    core,
    open: (request = {}) => core.openSession(request).session,
    call: (session, name, input) => core.call(session, name, input, new AbortController().signal),
  };
}
