/** The start-up line about the sandbox: info where Bash is confined, a warning where it is not. */
import type { Logger } from "../runtime/logger.ts";
import type { SandboxState } from "./command-sandbox.ts";

export function logSandbox(logger: Logger, state: SandboxState): void {
  const fields = { mode: state.mode, network: state.network, backend: state.backend, probeMs: state.probeMs, ...(state.reason && { reason: state.reason }) };
  if (state.confined) logger.info("sandbox ready", fields);
  else logger.warn(`sandbox: ${state.summary}`, fields);
}
