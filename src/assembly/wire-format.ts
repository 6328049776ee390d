/**
 * The single place a tool definition is serialized for a provider. Everything that reaches the wire
 * passes here, so this is also where DISABLE_EXPERIMENTAL_BETAS is enforced: with betas disabled the
 * output is projected onto each format's standard fields only, whatever was asked for.
 *
 * Anthropic Messages: `{name, description, input_schema, defer_loading?}`.
 * OpenAI function tools: `{type: "function", function: {name, description, parameters}}`.
 */
import type { JsonSchema, Tool } from "../tool/tool.ts";
import type { WireFormat } from "../deferral/delivery.ts";

export interface AnthropicInputSchema {
  type: "object";
  properties?: unknown;
  required?: string[];
  [key: string]: unknown;
}

export interface AnthropicWireTool {
  name: string;
  description: string;
  input_schema: AnthropicInputSchema;
  /** Beta (advanced tool use): the definition is held back until a `tool_reference` names it. */
  defer_loading?: true;
}

export interface OpenAIWireTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
  };
}

export type WireTool = AnthropicWireTool | OpenAIWireTool;

/** The fields of a tool that go on the wire; a full `Tool` satisfies it. */
export type WireFacts = Pick<Tool, "name" | "description" | "inputJSONSchema">;

export interface EmitOptions {
  /** Native delivery of a discovered deferred tool (Anthropic only). */
  deferLoading?: boolean;
  /** DISABLE_EXPERIMENTAL_BETAS: no beta field leaves, whatever was asked for. */
  betasDisabled?: boolean;
}

/**
 * A tool's base definition in a format: standard fields only, never a beta field. This is what a
 * session's schema cache stores (see schema-cache.ts), so the bytes are the same whatever the
 * delivery does with the tool later.
 */
export function baseWireTool(tool: WireFacts, format: "anthropic"): AnthropicWireTool;
export function baseWireTool(tool: WireFacts, format: "openai"): OpenAIWireTool;
export function baseWireTool(tool: WireFacts, format: WireFormat): WireTool;
export function baseWireTool(tool: WireFacts, format: WireFormat): WireTool {
  const schema = wireInputSchema(tool.inputJSONSchema);
  if (format === "openai") {
    return { type: "function", function: { name: tool.name, description: tool.description, parameters: schema } };
  }
  return { name: tool.name, description: tool.description, input_schema: schema };
}

/**
 * The one choke point every definition passes on its way out. It projects onto the format's
 * standard fields (so nothing a cache or a caller slipped in leaves), and adds `defer_loading`
 * only when asked for and betas are not disabled.
 */
export function emitWireTool(base: WireTool, options: EmitOptions = {}): WireTool {
  if (isOpenAIWireTool(base)) {
    const { name, description, parameters } = base.function;
    return { type: "function", function: { name, description, parameters } };
  }
  const out: AnthropicWireTool = { name: base.name, description: base.description, input_schema: base.input_schema };
  if (options.deferLoading && !options.betasDisabled) out.defer_loading = true;
  return out;
}

export function isOpenAIWireTool(wire: WireTool): wire is OpenAIWireTool {
  return "function" in wire;
}

export function wireToolName(wire: WireTool): string {
  return isOpenAIWireTool(wire) ? wire.function.name : wire.name;
}

/**
 * The input schema as a provider takes it: an object schema without `$schema` (MCP servers often
 * send one; it costs tokens and some gateways reject it). A schema without `type` is an object
 * schema by MCP's rules, so say so — Anthropic requires the field.
 */
export function wireInputSchema(schema: JsonSchema): AnthropicInputSchema {
  const { $schema: _dropped, ...rest } = schema;
  if (rest.type === "object") return rest as AnthropicInputSchema;
  return { ...rest, type: "object" };
}
