/**
 * Ajv side of the validation seam, for the JSON Schemas MCP servers publish. Each distinct schema is
 * compiled once, on first use (7,000 tools must not cost 7,000 compilations at start-up), and the
 * compiled function is shared by every tool with the same schema.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { formatProblems, isPlainObject, type Validator } from "./validator.ts";
import type { JsonSchema } from "../tool/tool.ts";

const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";

export class JsonSchemaCompiler {
  readonly #cache = new Map<string, ValidateFunction | Error>();
  readonly #draft7 = withFormats(new Ajv({ allErrors: true, strict: false, validateFormats: true }));
  readonly #draft2020 = withFormats(new Ajv2020({ allErrors: true, strict: false }));

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
      if (compiled(input)) return { ok: true, value: input };
      return { ok: false, message: formatProblems(toolName, describeErrors(compiled.errors ?? [])) };
    };
  }

  /** Compiles (or returns the cached compilation of) a schema; an invalid schema yields its Error. */
  compile(schema: JsonSchema): ValidateFunction | Error {
    const key = JSON.stringify(schema);
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const ajv = schema.$schema === DRAFT_2020 ? this.#draft2020 : this.#draft7;
    let compiled: ValidateFunction | Error;
    try {
      const { $schema: _ignored, ...rest } = schema;
      compiled = ajv.compile(schema.$schema === DRAFT_2020 ? schema : rest);
    } catch (error) {
      compiled = error instanceof Error ? error : new Error(String(error));
    }
    this.#cache.set(key, compiled);
    return compiled;
  }

  get cacheSize(): number {
    return this.#cache.size;
  }
}

function withFormats<T extends Ajv>(ajv: T): T {
  addFormats.default(ajv);
  return ajv;
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
