/**
 * The core's projects: `.toolpool.json` (or `.mcp.json`) files in workspace roots, whose servers run
 * only once trusted. Learning of a project, or a changed trust, re-applies the server list — one
 * application at a time, each computing the list when it runs, so the last one sees the latest state.
 */
import { defaultTrustPath, TrustStore } from "../config/trust-store.ts";
import { ProjectServers, type ProjectSummary } from "../mcp/project-servers.ts";
import type { ServerSandboxSpec, ServerSpec } from "../mcp/server-spec.ts";
import type { Logger } from "../runtime/logger.ts";

export class CoreProjects {
  readonly #projects: ProjectServers;
  #applying: Promise<void> = Promise.resolve();

  constructor(
    env: NodeJS.ProcessEnv,
    logger: Logger,
    /** Applies the current server list (the core's MCP pool reconfigures or starts). */
    private readonly apply: () => Promise<void>,
  ) {
    this.#projects = new ProjectServers(new TrustStore(defaultTrustPath(env)), logger);
  }

  /** A session opens in these roots: their project files are read (applied when new), and their default profile. */
  sessionOpened(roots: readonly string[], client?: string): string | undefined {
    if (this.#projects.observe(roots, client)) void this.#apply();
    return this.#projects.defaultProfile(roots);
  }

  /** Reads the project files of these roots (the config's, at start), applying nothing yet. */
  observe(roots: readonly string[]): void {
    this.#projects.observeConfigured(roots);
  }

  /** After a config reload: every known file read again, and these roots learnt. */
  reread(roots: readonly string[]): void {
    this.#projects.rescan();
    this.#projects.observeConfigured(roots);
  }

  /** `sandboxDefault`: the operator's `sandbox.servers`, which a project file cannot switch off. */
  specs(env: NodeJS.ProcessEnv, sandboxDefault?: ServerSandboxSpec): ServerSpec[] {
    return this.#projects.specs(env, sandboxDefault);
  }

  /** After `toolpool trust`: read the files again and apply what changed. */
  async rescan(): Promise<ProjectSummary[]> {
    if (this.#projects.rescan()) await this.#apply();
    return this.#projects.summaries();
  }

  summaries(): ProjectSummary[] {
    return this.#projects.summaries();
  }

  #apply(): Promise<void> {
    this.#applying = this.#applying.then(() => this.apply());
    return this.#applying;
  }
}
