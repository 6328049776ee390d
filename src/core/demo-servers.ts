/**
 * `serve --demo`: the reference MCP servers added under whatever the config names. Made once (a new
 * scratch directory per reload would look like a changed config and restart them), and the scratch
 * directory removed at stop (each demo run made one in /tmp and left it).
 */
import { rmSync } from "node:fs";
import { demoServerSpecs, type DemoSetup } from "../mcp/demo-config.ts";
import type { ServerSpec } from "../mcp/server-spec.ts";

export class DemoServers {
  #setup: DemoSetup | undefined;

  /** The configured servers plus the demo ones whose names the config does not use. */
  addTo(configured: readonly ServerSpec[]): ServerSpec[] {
    this.#setup ??= demoServerSpecs();
    const names = new Set(configured.map((spec) => spec.name));
    return [...configured, ...this.#setup.specs.filter((spec) => !names.has(spec.name))];
  }

  remove(): void {
    if (this.#setup) rmSync(this.#setup.workDir, { recursive: true, force: true });
  }
}
