/**
 * `buildTool()` and `buildMcpTool()`: the only ways a Tool is made. Whatever the author leaves out
 * gets the fail-closed answer — not concurrency-safe, not read-only, not destructive, enabled, and
 * permissions decided by the session's general rules. A tool must declare a capability to have it.
 */
import type { z } from "zod";
import { zodToWireSchema, zodValidator } from "../validate/zod.ts";
import type { JsonSchemaCompiler } from "../validate/ajv.ts";
import type { CallAccess, JsonSchema, McpInfo, PermissionDecision, Tool, ToolContext, ToolHints, ToolInput, ToolRedirect } from "./tool.ts";
import type { ToolResult } from "./result.ts";
import { isValidToolName } from "./names.ts";

/** For tools that touch no file: path rules never concern them. */
export const NO_PATHS: CallAccess = Object.freeze({ reads: [], writes: [] });

/** The fail-closed answer for a built-in that does not declare its paths. */
const UNDECLARED_PATHS: CallAccess = Object.freeze({ reads: [], writes: [], unknown: "does not declare the paths it touches" });

/** Default cap on a result's text: large enough for a real file, small enough for a context window. */
export const DEFAULT_MAX_RESULT_SIZE_CHARS = 100_000;

interface CommonDefinition<Input> {
  name: string;
  aliases?: readonly string[];
  description: string;
  searchHint?: string;
  outputSchema?: JsonSchema;
  shouldDefer?: boolean;
  alwaysLoad?: boolean;
  maxResultSizeChars?: number;
  timeoutMs?: number;
  isEnabled?: () => boolean;
  isConcurrencySafe?: (input: Input) => boolean;
  /**
   * `true`/`false` when the answer holds for every input (only then does it become MCP's
   * `readOnlyHint`); a function when it depends on the input (no hint: MCP's cautious default).
   */
  isReadOnly?: boolean | ((input: Input) => boolean);
  /** Declared only when it holds for every input; left out, hosts assume the cautious default (may destroy). */
  destructive?: boolean;
  /** Declared only when it holds for every input; left out, hosts assume the cautious default (open world). */
  openWorld?: boolean;
  validateInput?: (input: Input, context: ToolContext) => Promise<string | undefined>;
  checkPermissions?: (input: Input, context: ToolContext) => Promise<PermissionDecision>;
  permissionSubject?: (input: Input, cwd: string) => string | undefined;
  /** The paths a call reads and writes; left out, every path rule refuses the tool's calls. */
  access?: (input: Input, cwd: string) => CallAccess | Promise<CallAccess>;
  call: (input: Input, context: ToolContext) => Promise<ToolResult>;
  redirect?: (input: Input) => ToolRedirect;
}

export interface BuiltinToolDefinition<Schema extends z.ZodType> extends CommonDefinition<z.infer<Schema>> {
  /**
   * The input schema, or a function that makes it: then it is made on the tool's first call or
   * schema read, not when the module loads (the daemon loads every built-in at start-up, and
   * making their zod schemas was the larger part of its start).
   */
  inputSchema: Schema | (() => Schema);
}

export interface McpToolDefinition extends CommonDefinition<ToolInput> {
  inputJSONSchema: JsonSchema;
  mcpInfo: McpInfo;
}

export function buildTool<Schema extends z.ZodType>(definition: BuiltinToolDefinition<Schema>): Tool {
  // Safe: the pipeline only hands `call` and the predicates input that `validator` accepted,
  // and the validator is the zod schema itself.
  const typed = definition as unknown as CommonDefinition<ToolInput>;
  const declared = definition.inputSchema;
  let made: z.ZodType | undefined;
  const schema = () => (made ??= typeof declared === "function" ? declared() : declared);
  return finish(typed, UNDECLARED_PATHS, {
    // Converted when first read (a tools array, a search), not when the tool is made: a daemon
    // makes every built-in at start-up and converting them all was a tenth of its cold start.
    inputJSONSchema: () => zodToWireSchema(schema()),
    validator: zodValidator(definition.name, schema),
    isMcp: false,
  });
}

export function buildMcpTool(definition: McpToolDefinition, compiler: JsonSchemaCompiler): Tool {
  // An MCP server's files are its own business: its tools are governed by mcp__ rules, not path rules.
  return finish(definition, NO_PATHS, {
    inputJSONSchema: definition.inputJSONSchema,
    validator: compiler.validator(definition.name, definition.inputJSONSchema),
    isMcp: true,
    mcpInfo: definition.mcpInfo,
  });
}

function finish(
  definition: CommonDefinition<ToolInput>,
  defaultAccess: CallAccess,
  wire: Pick<Tool, "validator" | "isMcp"> & { inputJSONSchema: JsonSchema | (() => JsonSchema); mcpInfo?: McpInfo },
): Tool {
  if (!isValidToolName(definition.name)) {
    throw new Error(
      `Tool name ${JSON.stringify(definition.name)} is invalid: use 1–64 characters from [a-zA-Z0-9_-]`,
    );
  }
  const schema = wire.inputJSONSchema;
  const tool: Tool = {
    name: definition.name,
    aliases: definition.aliases ?? [],
    description: definition.description,
    // A schema converted on first read becomes a getter below (in this place among the keys).
    inputJSONSchema: typeof schema === "function" ? {} : schema,
    isMcp: wire.isMcp,
    shouldDefer: definition.shouldDefer ?? false,
    alwaysLoad: definition.alwaysLoad ?? false,
    maxResultSizeChars: definition.maxResultSizeChars ?? DEFAULT_MAX_RESULT_SIZE_CHARS,
    validator: wire.validator,
    isEnabled: definition.isEnabled ?? (() => true),
    isConcurrencySafe: definition.isConcurrencySafe ?? (() => false),
    isReadOnly: readOnlyPredicate(definition.isReadOnly),
    hints: hintsOf(definition),
    validateInput: definition.validateInput ?? (async () => undefined),
    checkPermissions: definition.checkPermissions ?? (async () => ({ behavior: "passthrough" })),
    permissionSubject: definition.permissionSubject ?? (() => undefined),
    access: async (input, cwd) => (definition.access ? definition.access(input, cwd) : defaultAccess),
    call: definition.call,
  };
  const made: Tool = {
    ...tool,
    ...(definition.searchHint !== undefined && { searchHint: collapseWhitespace(definition.searchHint) }),
    ...(definition.outputSchema !== undefined && { outputSchema: definition.outputSchema }),
    ...(definition.timeoutMs !== undefined && { timeoutMs: definition.timeoutMs }),
    ...(wire.mcpInfo !== undefined && { mcpInfo: wire.mcpInfo }),
    ...(definition.redirect !== undefined && { redirect: definition.redirect }),
  };
  if (typeof schema === "function") {
    let converted: JsonSchema | undefined;
    Object.defineProperty(made, "inputJSONSchema", { enumerable: true, get: () => (converted ??= schema()) });
  }
  return Object.freeze(made);
}

function readOnlyPredicate(declared: CommonDefinition<ToolInput>["isReadOnly"]): (input: ToolInput) => boolean {
  if (typeof declared === "function") return declared;
  const constant = declared === true;
  return () => constant;
}

/**
 * MCP annotations that hold for every input, fail-closed: a hint exists only where the tool
 * declared a constant. A read-only tool destroys nothing, so it is also `destructiveHint: false`.
 */
function hintsOf(definition: CommonDefinition<ToolInput>): ToolHints {
  const readOnly = definition.isReadOnly === true;
  const destructive = readOnly ? false : definition.destructive;
  return Object.freeze({
    ...(readOnly && { readOnlyHint: true as const }),
    ...(destructive !== undefined && { destructiveHint: destructive }),
    ...(definition.openWorld !== undefined && { openWorldHint: definition.openWorld }),
  });
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
