/**
 * Ajv side of the validation seam, for the JSON Schemas MCP servers publish. Each distinct schema is
 * compiled once, on first use (7,000 tools must not cost 7,000 compilations at start-up), and the
 * compiled function is shared by every tool with the same schema.
 *
 * A server's schema is as untrusted as a model's input: its `pattern`s are matched by the linear-time
 * engine (a backtracking `^(a+)+$` would stall every client during validation), and a schema that
 * refers to itself without end is answered as a tool error instead of overflowing the stack.
 */
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { requireEmbedded } from "../runtime/embedded-module.ts";
import { compileLinearRegex, UnsupportedPatternError } from "../runtime/linear-regex.ts";
import { tooCostlySchema, MAX_SCHEMA_EXPANSION } from "./schema-cost.ts";
import { withLinearUniqueItems } from "./unique-items.ts";
import { formatProblems, isPlainObject, type Validator } from "./validator.ts";
import type { JsonSchema } from "../tool/tool.ts";

const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";
/** Compilations kept for reuse; a validator keeps its own, so a dropped one is only compiled again by a new tool. */
export const MAX_CACHED_SCHEMAS = 1_024;

/** A schema whose `$ref`s expand past MAX_SCHEMA_EXPANSION nodes: validating one value could take minutes. */
export class SchemaTooCostlyError extends Error {
  constructor() {
    super(`the schema expands to more than ${MAX_SCHEMA_EXPANSION.toLocaleString("en-US")} nodes through its $refs and combinators (or has a $ref that leads outside it), too costly to check inputs against`);
  }
}

export class JsonSchemaCompiler {
  readonly #cache = new Map<string, ValidateFunction | Error>();
  // Ajv is loaded on the first compilation, not at start-up: a daemon with no MCP server and no
  // output schema never needs it.
  #draft7: Ajv | undefined;
  #draft2020: Ajv | undefined;

  /** A validator that compiles `schema` the first time it is used. */
  validator(toolName: string, schema: JsonSchema): Validator {
    let compiled: ValidateFunction | Error | undefined;
    return (input) => {
      compiled ??= this.compile(schema);
      if (!isPlainObject(input)) {
        return { ok: false, message: formatProblems(toolName, [{ field: "", problem: "must be a JSON object" }]) };
      }
      // A schema the server got wrong cannot judge inputs; the server will, so let the call through.
      if (compiled instanceof Error) return { ok: true, value: input };
      let valid: boolean;
      try {
        valid = compiled(input) as boolean;
      } catch (error) {
        // `{"$ref": "#"}` and its cousins recurse without consuming input until the stack is gone.
        if (!(error instanceof RangeError)) throw error;
        return {
          ok: false,
          message:
            `${toolName} cannot be called: its input schema refers to itself without end (a recursive $ref), so no input can be checked against it. ` +
            "This is a fault of the tool's server, not of the input; use another tool.",
        };
      }
      if (valid) return { ok: true, value: input };
      return { ok: false, message: formatProblems(toolName, describeErrors(compiled.errors ?? [])) };
    };
  }

  /** Compiles (or returns the cached compilation of) a schema; an invalid schema yields its Error. */
  compile(schema: JsonSchema): ValidateFunction | Error {
    const key = JSON.stringify(schema);
    const cached = this.#cache.get(key);
    if (cached) {
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return cached;
    }
    let compiled: ValidateFunction | Error;
    if (tooCostlySchema(schema)) {
      compiled = new SchemaTooCostlyError();
      this.#remember(key, compiled);
      return compiled;
    }
    const ajv = schema.$schema === DRAFT_2020 ? (this.#draft2020 ??= createAjv2020()) : (this.#draft7 ??= createAjv7());
    try {
      const { $schema: _ignored, ...rest } = schema;
      const source = schema.$schema === DRAFT_2020 ? schema : rest;
      compiled = ajv.compile(source);
      // Ajv keeps every schema it compiled (and its $id) until told otherwise: the function is
      // all we need, and two servers may publish the same $id.
      ajv.removeSchema(source);
    } catch (error) {
      compiled = error instanceof Error ? error : new Error(String(error));
    }
    this.#remember(key, compiled);
    return compiled;
  }

  /** Least recently used first out: 8,000 sessions with 8,000 schemas must not keep 8,000 compilations. */
  #remember(key: string, compiled: ValidateFunction | Error): void {
    this.#cache.set(key, compiled);
    if (this.#cache.size > MAX_CACHED_SCHEMAS) this.#cache.delete(this.#cache.keys().next().value!);
  }

  get cacheSize(): number {
    return this.#cache.size;
  }
}

function createAjv7(): Ajv {
  const { Ajv: Draft7 } = ajvModule();
  return withLinearUniqueItems(withFormats(new Draft7({ allErrors: true, strict: false, validateFormats: true, code: { regExp: linearRegExp } })));
}

function createAjv2020(): Ajv {
  const { Ajv2020 } = ajvModule();
  return withLinearUniqueItems(withFormats(new Ajv2020({ allErrors: true, strict: false, code: { regExp: linearRegExp } })));
}

/**
 * Ajv's hook for `pattern` and `patternProperties`. A pattern the linear engine refuses (a
 * backreference, a lookaround) is not checked here: the server still validates its own input, and
 * refusing the whole tool over one unsupported pattern would punish the user for the server's regex.
 */
const linearRegExp = Object.assign(
  (pattern: string, _unicodeFlag: string) => {
    try {
      const regex = compileLinearRegex(pattern);
      return { test: (text: string) => regex.test(text), toString: () => `linear:${pattern}` };
    } catch (error) {
      if (!(error instanceof UnsupportedPatternError)) throw error;
      return { test: () => true, toString: () => `unchecked:${pattern}` };
    }
  },
  // Ajv names the function in generated code by this; any stable identifier does.
  { code: "linearRegExp" },
);

function withFormats<T extends Ajv>(ajv: T): T {
  ajvModule().addFormats(ajv);
  return ajv;
}

/** Ajv is loaded on the first JSON Schema compiled (an MCP tool's), not at start-up. */
function ajvModule(): typeof import("./ajv-module.ts") {
  return requireEmbedded<typeof import("./ajv-module.ts")>("validate/ajv-module");
}

function describeErrors(errors: readonly ErrorObject[]) {
  return errors.map((error) => {
    const base = error.instancePath.slice(1).replaceAll("/", ".");
    if (error.keyword === "required") {
      const missing = String((error.params as { missingProperty?: string }).missingProperty ?? "");
      return { field: base ? `${base}.${missing}` : missing, problem: "is required" };
    }
    if (error.keyword === "additionalProperties") {
      const extra = String((error.params as { additionalProperty?: string }).additionalProperty ?? "");
      return { field: base ? `${base}.${extra}` : extra, problem: "is not an accepted property" };
    }
    return { field: base, problem: error.message ?? "is invalid" };
  });
}
