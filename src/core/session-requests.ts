/**
 * What a harness's session requests compute around the core's calls: the output schema checked
 * before a session opens, a call's result in the session's provider format, the compaction block,
 * and an MCP `tools/call`'s refusal of a name the session does not have.
 */
import { renderCompactionBlock } from "../assembly/compaction.ts";
import { scanTranscript } from "../assembly/scan-transcript.ts";
import { createStructuredOutputTool, OutputSchemaError } from "../builtin/structured-output.ts";
import type { Pool } from "../pool/assemble.ts";
import { outsideProfile } from "../pool/profile.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import type { CallResult, CompactResult, McpToolsCallResult } from "../protocol/methods.ts";
import type { Session } from "../session/session.ts";
import type { ToolResult } from "../tool/result.ts";
import type { JsonSchemaCompiler } from "../validate/ajv.ts";
import { providerToolResult } from "./format-result.ts";

/** Refused before anything changes: a broken schema must not open (or alter) a session. */
export function checkOutputSchema(schema: Record<string, unknown>, compiler: JsonSchemaCompiler): void {
  try {
    createStructuredOutputTool(schema, compiler);
  } catch (error) {
    if (!(error instanceof OutputSchemaError)) throw error;
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: field "outputSchema": ${error.message}`);
  }
}

/** A harness's `toolpool/call`: the transcript, when sent, is what ExecuteExtraTool judges "discovered" by. */
export interface HarnessCall {
  name: string;
  input: unknown;
  toolUseId?: string | undefined;
  messages?: readonly unknown[] | undefined;
}

export function rememberTranscript(session: Session, messages: readonly unknown[]): void {
  session.rememberTranscript(scanTranscript(messages).discovered);
}

/** `toolpool/call`'s answer: the result, and the same in the session's provider format. */
export function callResult(result: ToolResult, session: Session, toolUseId: string | undefined): CallResult {
  return { ...mcpCallResult(result), toolResult: providerToolResult(result, session.settings.format, toolUseId ?? "") };
}

export function mcpCallResult(result: ToolResult): McpToolsCallResult {
  return {
    content: result.content,
    isError: result.isError,
    ...(result.structuredContent && { structuredContent: result.structuredContent }),
  };
}

/** The `<discovered-tools>` block a summary keeps, so compaction does not lose what was found. */
export function compaction(session: Session, messages: readonly unknown[], system: unknown): CompactResult {
  const scan = scanTranscript(messages, { system });
  // Tools the session found through its own searches count too: a bridge sends no transcript.
  const discovered = new Set([...scan.discovered, ...session.searched]);
  return { sessionId: session.id, block: renderCompactionBlock(discovered), discovered: [...discovered].sort() };
}

/** An MCP client names a tool its session does not have: InvalidParams, with the profile as the reason when it is. */
export function unknownMcpTool(pool: Pool, session: Session, name: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, outsideProfile(pool, session.settings.profile, name) ?? `Unknown tool: ${name}`);
}
