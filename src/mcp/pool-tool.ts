/**
 * An MCP server's tool definition made into a pool Tool: named `mcp__<server>__<tool>`, its
 * description capped, its metadata and annotations mapped, its input schema compiled with Ajv (so
 * bad input is refused before any call leaves the daemon), and its `call` routed back through
 * the pool — which starts a lazy server, applies the server's timeout and converts the result.
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { buildMcpTool } from "../tool/build-tool.ts";
import { mcpToolName } from "../tool/names.ts";
import { errorResult, type ToolResult } from "../tool/result.ts";
import type { GroupText, JsonSchema, Tool, ToolContext, ToolInput } from "../tool/tool.ts";
import type { JsonSchemaCompiler } from "../validate/ajv.ts";
import { poolGroupsOf } from "./server-groups.ts";
import { groupInfoFor, listingGroupTexts } from "./group-text.ts";
import { presentationOf } from "./tool-presentation.ts";
import { capDescription, cleanSchemaTexts, hiddenKeyIn } from "./description-cap.ts";
import { dropHidden } from "./catalog-text.ts";
import { MAX_HINT_CHARS, MAX_SCHEMA_CHARS, MAX_RESULT_TEXT_CHARS } from "./limits.ts";

export interface PoolToolOptions {
  server: string;
  compiler: JsonSchemaCompiler;
  /** The config's `alwaysLoad`: raw tool names or pool names. */
  alwaysLoad: ReadonlySet<string>;
  /** The config entry's `defer` (always: none eager whatever the server says; never: all eager). */
  defer?: "always" | "never" | "auto";
  /**
   * The call's one deadline, which the pipeline owns: however much progress a server reports, the
   * call ends here (the pool's own timeout is the server's silence, reset by progress).
   */
  deadlineMs: number;
  call: (tool: string, input: ToolInput, context: ToolContext) => Promise<ToolResult>;
  /** The listing's group texts (listingGroupTexts), read once for all its tools; else this definition's own. */
  groupTexts?: ReadonlyMap<string, GroupText>;
  /** Group-text records shared by tools of the same groups (groupInfoFor). */
  sharedGroupInfo?: Map<string, Record<string, GroupText> | undefined>;
}

/** Throws when the definition cannot become a tool (schema too large, unusable name); the caller skips it. */
export function toPoolTool(definition: McpTool, options: PoolToolOptions, distinct = false): Tool {
  const name = mcpToolName(options.server, definition.name, distinct);
  const original = definition.inputSchema as JsonSchema;
  const schemaChars = JSON.stringify(original).length;
  if (schemaChars > MAX_SCHEMA_CHARS) {
    throw new Error(`its input schema is ${schemaChars} characters, over the ${MAX_SCHEMA_CHARS}-character limit`);
  }
  const hiddenKey = hiddenKeyIn(original);
  if (hiddenKey !== undefined) throw new Error(`its input schema names a property with hidden characters (${JSON.stringify(dropHidden(hiddenKey, 64))} as shown): text the model would read and a reviewer would not see`);
  const { $schema: draft, ...wireSchema } = cleanSchemaTexts(original);
  // An output schema is only passed on to MCP hosts (tool/mcp-view.ts); past the input schema's
  // limit it is left out, not the tool: a 9 MB one made every `toolpool mcp` listing a line no client reads.
  // Its descriptions and titles reach a host's model as the input schema's do: hidden characters dropped the same way.
  const outputSchema = definition.outputSchema !== undefined && JSON.stringify(definition.outputSchema).length <= MAX_SCHEMA_CHARS && hiddenKeyIn(definition.outputSchema) === undefined ? cleanSchemaTexts(definition.outputSchema) : undefined;
  const meta = definition._meta ?? {};
  const searchHint = meta["anthropic/searchHint"];
  const groups = poolGroupsOf(meta);
  const groupInfo = groupInfoFor(groups, options.groupTexts ?? listingGroupTexts([definition]), options.sharedGroupInfo);
  const presentation = presentationOf(definition, draft);
  const annotations = definition.annotations ?? {};
  const readOnly = annotations.readOnlyHint === true;
  const listed = options.alwaysLoad.has(definition.name) || options.alwaysLoad.has(name);
  const usual = listed ? "config" : meta["anthropic/alwaysLoad"] === true ? "server" : undefined;
  const entryDefer = options.defer === "always" || options.defer === "never" ? options.defer : undefined;
  const built = buildMcpTool(
    {
      name,
      description: capDescription(definition.description ?? annotations.title ?? definition.title ?? ""),
      ...(typeof searchHint === "string" && hintOf(searchHint) !== "" && { searchHint: hintOf(searchHint) }),
      inputJSONSchema: wireSchema,
      ...(outputSchema && { outputSchema: outputSchema as JsonSchema }),
      mcpInfo: {
        server: options.server,
        tool: definition.name,
        ...(groups.length > 0 && { groups }),
        ...(groupInfo !== undefined && { groupInfo }),
        ...(Object.keys(presentation).length > 0 && { presentation }),
        ...((usual !== undefined || entryDefer !== undefined) && { load: { ...(usual && { alwaysLoad: usual }), ...(entryDefer && { entryDefer }) } }),
      },
      alwaysLoad: entryDefer === "never" || (entryDefer !== "always" && usual !== undefined),
      timeoutMs: options.deadlineMs,
      // The pipeline's one result cap; the conversion only bounds what MCP alone has (images, structured content).
      maxResultSizeChars: MAX_RESULT_TEXT_CHARS,
      // The server's own hints, relayed as it gave them; one it left out stays out (the cautious default).
      isReadOnly: readOnly,
      // Read-only tools cannot interfere with each other, so they may run side by side.
      isConcurrencySafe: () => readOnly,
      ...(typeof annotations.destructiveHint === "boolean" && { destructive: annotations.destructiveHint }),
      ...(typeof annotations.openWorldHint === "boolean" && { openWorld: annotations.openWorldHint }),
      call: taskOnly(definition) ? async () => errorResult(taskOnlyRefusal(name)) : (input, context) => options.call(definition.name, input, context),
    },
    options.compiler,
  );
  // The wire copy drops `$schema` (providers reject or ignore it), but validation must follow the
  // draft the server declared (2020-12 keywords mean nothing to a draft-07 validator).
  if (draft === undefined) return built;
  return Object.freeze({ ...built, validator: options.compiler.validator(name, original) });
}

/**
 * A server's whole list; a definition that cannot become a tool is skipped and reported, not fatal.
 * Two raw names that map to one provider-safe name (`a.b` and `a_b`) both stay: a name that is
 * already provider-safe keeps it (else the first by code point), the other gets a hashed name, and
 * the clash is reported — the same whatever order the server lists them in. The pool name always maps
 * back to the raw name (`mcpInfo.tool`), which is what the server is called with.
 */
export function buildServerTools(
  definitions: readonly McpTool[],
  options: PoolToolOptions & { onSkip: (tool: string, reason: string) => void; onRename?: (tool: string, name: string, clashedWith: string) => void },
): Tool[] {
  const tools: Tool[] = [];
  const taken = new Map<string, string>();
  options = { ...options, groupTexts: listingGroupTexts(definitions), sharedGroupInfo: new Map() };
  const safeFirst = [...definitions].sort((a, b) => Number(!isProviderSafe(a.name)) - Number(!isProviderSafe(b.name)) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const definition of safeFirst) {
    try {
      let tool = toPoolTool(definition, options);
      const holder = taken.get(tool.name);
      if (holder !== undefined && holder !== definition.name) {
        tool = toPoolTool(definition, options, true);
        options.onRename?.(definition.name, tool.name, holder);
      }
      // The same raw name twice is left to the pool's assembly, which reports it as a collision.
      if (!taken.has(tool.name)) taken.set(tool.name, definition.name);
      tools.push(tool);
    } catch (error) {
      options.onSkip(definition.name, (error as Error).message);
    }
  }
  return tools;
}

/**
 * A 2025-11-25 tool that runs only as a task (`execution.taskSupport: "required"`): its server
 * answers any other call with Method not found. toolpool calls every tool inline and drives no
 * tasks, so such a call is refused here, saying why, and never reaches the server.
 */
function taskOnly(definition: McpTool): boolean {
  return (definition as { execution?: { taskSupport?: unknown } }).execution?.taskSupport === "required";
}

export function taskOnlyRefusal(name: string): string {
  return (
    `toolpool: ${name} runs only as a task (its server marks it execution.taskSupport "required", MCP's tasks), ` +
    `and toolpool calls every tool inline and does not drive tasks, so it cannot run this tool; nothing was sent to the server.`
  );
}

function isProviderSafe(name: string): boolean {
  return /^[a-zA-Z0-9_-]+$/.test(name);
}

/** A search hint as the index reads it: hidden characters dropped (catalog-text.ts), one line, at most MAX_HINT_CHARS. */
function hintOf(raw: string): string {
  return dropHidden(raw, MAX_HINT_CHARS).replace(/\s+/g, " ").trim();
}
