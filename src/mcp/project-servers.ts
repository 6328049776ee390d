/**
 * The MCP servers that projects bring: the `.toolpool.json` (or `.mcp.json`) of each workspace root
 * a session (or the config) named. A project's servers run only once the user approved that
 * file's exact content (`toolpool trust`); until then they are listed as `untrusted`, with the
 * command that approves them. Each is named `<server>-<6 hex of the project root>`, so two projects'
 * servers of the same name stay apart, and only sessions whose workspace roots include the
 * project see its tools.
 */
import type { ProjectSummaryResult } from "../protocol/methods.ts";
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { ProjectFileError, readProjectFile, type ProjectFile } from "../config/project-file.ts";
import type { TrustStore } from "../config/trust-store.ts";
import type { Logger } from "../runtime/logger.ts";
import { toSpec, type ServerSandboxSpec, type ServerSpec } from "./server-spec.ts";

/** Bounds what sessions naming ever more roots can make the daemon watch. */
const MAX_PROJECTS = 256;

interface ProjectState {
  root: string;
  project?: ProjectFile;
  error?: string;
  trusted: boolean;
}

/** A project root as `toolpool/projects` reports it. */
export type ProjectSummary = ProjectSummaryResult;

export function projectServerName(name: string, root: string): string {
  return `${name}-${createHash("sha256").update(root).digest("hex").slice(0, 6)}`;
}

export class ProjectServers {
  readonly #projects = new Map<string, ProjectState>();

  constructor(
    private readonly trust: TrustStore,
    private readonly logger: Logger,
  ) {}

  /** Reads these roots' project files (again); true when what they bring changed. */
  observe(roots: readonly string[]): boolean {
    let changed = false;
    for (const given of roots) {
      const root = realRoot(given);
      if (!root) continue;
      if (!this.#projects.has(root) && this.#projects.size >= MAX_PROJECTS) {
        this.logger.warn("too many project roots; ignoring a new one", { root, limit: MAX_PROJECTS });
        continue;
      }
      const next = this.#read(root);
      const previous = this.#projects.get(root);
      if (!previous && !next.project && !next.error) continue;
      if (previous && fingerprint(previous) === fingerprint(next)) continue;
      this.#projects.set(root, next);
      changed = true;
      if (next.error) this.logger.warn("project file refused", { root, error: next.error });
      else if (next.project) this.logger.info("project file read", { file: next.project.file, trusted: next.trusted, servers: Object.keys(next.project.servers).length });
    }
    return changed;
  }

  /** Every known root read again (after `toolpool trust`, on SIGHUP). */
  rescan(): boolean {
    return this.observe([...this.#projects.keys()]);
  }

  specs(env: NodeJS.ProcessEnv, sandboxDefault?: ServerSandboxSpec): ServerSpec[] {
    // A project file's own `sandbox` never replaces the operator's default (it could switch it off).
    const choice = { ...(sandboxDefault && { fallback: sandboxDefault }), ownAllowed: false };
    const specs: ServerSpec[] = [];
    for (const { root, project, trusted } of this.#projects.values()) {
      if (!project) continue;
      for (const [name, server] of Object.entries(project.servers)) {
        const fullName = projectServerName(name, root);
        // Relative paths and the default working directory are the project's root.
        const entry = "url" in server ? server : { ...server, cwd: server.cwd ?? "." };
        if (!trusted) {
          const reason = `waiting for approval: project file ${project.file} is not trusted (or changed since it was); run \`toolpool trust ${project.file}\``;
          specs.push({ ...toSpec(fullName, { ...entry, disabled: true }, project.file, root, env), project: root, untrusted: reason });
          continue;
        }
        try {
          specs.push({ ...toSpec(fullName, entry, project.file, root, env, choice), project: root });
        } catch (error) {
          this.logger.error("project MCP server skipped", { server: fullName, file: project.file, error: (error as Error).message });
        }
      }
    }
    return specs;
  }

  /** The first of the session's roots whose project names a default profile. */
  defaultProfile(roots: readonly string[]): string | undefined {
    for (const given of roots) {
      const root = realRoot(given);
      const profile = root ? this.#projects.get(root)?.project?.defaultProfile : undefined;
      if (profile) return profile;
    }
    return undefined;
  }

  summaries(): ProjectSummary[] {
    return [...this.#projects.values()].map(({ root, project, trusted, error }) => ({
      root,
      ...(project && { file: project.file }),
      trusted,
      servers: project ? Object.keys(project.servers).map((name) => projectServerName(name, root)) : [],
      ...(project?.defaultProfile && { defaultProfile: project.defaultProfile }),
      ...(error && { error }),
    }));
  }

  #read(root: string): ProjectState {
    try {
      const project = readProjectFile(root);
      if (!project) return { root, trusted: false };
      return { root, project, trusted: this.trust.isTrusted(project.file, project.sha256) };
    } catch (error) {
      if (!(error instanceof ProjectFileError)) throw error;
      return { root, error: error.message, trusted: false };
    }
  }
}

function fingerprint(state: ProjectState): string {
  return JSON.stringify([state.project?.file, state.project?.sha256, state.trusted, state.error]);
}

function realRoot(root: string): string | undefined {
  try {
    return realpathSync(root);
  } catch {
    return undefined;
  }
}
