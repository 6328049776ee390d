/**
 * Modules the binary carries beside its main bundle, each built by build.ts as its own entrypoint.
 * Everything in the main bundle costs memory and start-up time at every start, run or not: its
 * bytecode is read in when the binary loads (measured: embedding 4.5 MB more in a compiled hello
 * world added 3.9 MB of idle RSS and 4 ms of cold start, though none of it ran). A module embedded
 * beside the bundle is read only when first required, so the large packages that only some
 * features use (Ajv, re2js, the HTML converter, the Bash grammar, the OpenTelemetry SDK) live here.
 *
 * An embedded module is a separate copy of whatever it imports, so it shares no state and no
 * classes with the main bundle: each is a thin wrapper over packages (instanceof across the seam
 * would fail). From source (tests, `bun src/main.ts`) it is the .ts file itself.
 */
import { join } from "node:path";

/** Paths below src/, without extension; build.ts builds each as an entrypoint. */
export const EMBEDDED_MODULES = [
  "telemetry/otel-metrics",
  "runtime/re2js-module",
  "validate/ajv-module",
  "builtin/html-markdown-module",
  "builtin/bash-grammar-module",
] as const;

export type EmbeddedModule = (typeof EMBEDDED_MODULES)[number];

/**
 * Loads an embedded module (synchronously; the first call reads it in). The bundler cannot follow
 * a computed path, which is what keeps the module out of the main bundle.
 */
export function requireEmbedded<T>(name: EmbeddedModule): T {
  return require(embeddedModulePath(name)) as T;
}

export function embeddedModulePath(name: EmbeddedModule): string {
  // Compiled, this file is part of the main bundle, whose directory is the embedded root (the
  // entrypoints' common directory, src/); from source it is src/runtime/.
  const compiled = import.meta.dir.includes("$bunfs") || import.meta.dir.includes("~BUN");
  return compiled ? join(import.meta.dir, `${name}.js`) : join(import.meta.dir, "..", `${name}.ts`);
}
