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

/**
 * Bounds what sessions naming ever more roots can make the daemon watch: daemon-wide, and per
 * client (connection). A client's roots past its share drop its own least recently used one; a
 * full table drops the least recently used root of all (never one the config names). So 256 junk
 * project roots from one client no longer fill the table for everyone until a restart: they
 * cannot pass the client's share, and a root someone opens a session in now pushes out the
 * stalest. A dropped root's servers stop; a session opened there again brings them back.
 */
export const MAX_PROJECTS = 256;
export const MAX_PROJECTS_PER_CLIENT = 32;

interface ProjectState {
  root: string;
  project?: ProjectFile;
  error?: string;
  trusted: boolean;
  /** Why a project's servers wait (not approved, or a pinned file changed); set when not trusted. */
  waiting?: string;
  /** What a start checks again: the project file's and each executed file's approved digest. */
  pins?: Record<string, string>;
  trustedAt?: string;
}

/** A project root as `toolpool/projects` reports it. */
export type ProjectSummary = ProjectSummaryResult;

export function projectServerName(name: string, root: string): string {
  return `${name}-${createHash("sha256").update(root).digest("hex").slice(0, 6)}`;
}

export class ProjectServers {
  /** In least recently used order: a root observed again moves to the end. */
  readonly #projects = new Map<string, ProjectState>();
  /** Roots the config names: never dropped. */
  readonly #configured = new Set<string>();
  /** Each client's roots in the table, least recently used first. */
  readonly #clients = new Map<string, string[]>();

  constructor(
    private readonly trust: TrustStore,
    private readonly logger: Logger,
  ) {}

  /** The config's roots: read like a session's, and never dropped by the bounds. */
  observeConfigured(roots: readonly string[]): boolean {
    for (const given of roots) {
      const root = realRoot(given);
      if (root) this.#configured.add(root);
    }
    return this.observe(roots);
  }

  /** Reads these roots' project files (again), for `client` when a session names them; true when what they bring changed. */
  observe(roots: readonly string[], client?: string): boolean {
    let changed = false;
    for (const given of roots) {
      const root = realRoot(given);
      if (!root) continue;
      const next = this.#read(root);
      const previous = this.#projects.get(root);
      if (!previous && !next.project && !next.error) continue;
      if (!previous && this.#projects.size >= MAX_PROJECTS && !this.#dropStalest()) {
        this.logger.warn("too many project roots, all named by the config; ignoring a new one", { root, limit: MAX_PROJECTS });
        continue;
      }
      // Most recently used last, whether or not its file changed.
      this.#projects.delete(root);
      this.#projects.set(root, previous && fingerprint(previous) === fingerprint(next) ? previous : next);
      if (client !== undefined && this.#claim(client, root)) changed = true;
      if (previous && fingerprint(previous) === fingerprint(next)) continue;
      changed = true;
      if (next.error) this.logger.warn("project file refused", { root, error: next.error });
      else if (next.project) this.logger.info("project file read", { file: next.project.file, trusted: next.trusted, servers: Object.keys(next.project.servers).length });
    }
    return changed;
  }

  /** Records that `client` uses `root`; true when that dropped another root of the table. */
  #claim(client: string, root: string): boolean {
    const held = (this.#clients.get(client) ?? []).filter((kept) => kept !== root && this.#projects.has(kept));
    held.push(root);
    let dropped = false;
    while (held.length > MAX_PROJECTS_PER_CLIENT) {
      const oldest = held.shift() as string;
      if (this.#configured.has(oldest) || this.#heldByOthers(client, oldest)) continue;
      this.#projects.delete(oldest);
      this.logger.info("project root dropped: its client holds more than its share", { root: oldest, limit: MAX_PROJECTS_PER_CLIENT });
      dropped = true;
    }
    this.#clients.delete(client);
    this.#clients.set(client, held);
    // Bounded like the table: a client forgotten holds no share (its roots age out by use).
    if (this.#clients.size > MAX_PROJECTS * 4) this.#clients.delete(this.#clients.keys().next().value as string);
    return dropped;
  }

  #heldByOthers(client: string, root: string): boolean {
    for (const [other, roots] of this.#clients) if (other !== client && roots.includes(root)) return true;
    return false;
  }

  /** Drops the least recently used root the config does not name; false when there is none. */
  #dropStalest(): boolean {
    for (const root of this.#projects.keys()) {
      if (this.#configured.has(root)) continue;
      this.#projects.delete(root);
      this.logger.info("project root dropped: the table is full and it was used least recently", { root, limit: MAX_PROJECTS });
      return true;
    }
    return false;
  }

  /** Every known root read again (after `toolpool trust`, on SIGHUP). */
  rescan(): boolean {
    return this.observe([...this.#projects.keys()]);
  }

  specs(env: NodeJS.ProcessEnv, sandboxDefault?: ServerSandboxSpec): ServerSpec[] {
    // A project file's own `sandbox` never replaces the operator's default (it could switch it off).
    const choice = { ...(sandboxDefault && { fallback: sandboxDefault }), ownAllowed: false };
    const specs: ServerSpec[] = [];
    for (const { root, project, trusted, waiting, pins } of this.#projects.values()) {
      if (!project) continue;
      for (const [name, server] of Object.entries(project.servers)) {
        const fullName = projectServerName(name, root);
        // Relative paths and the default working directory are the project's root.
        const entry = "url" in server ? server : { ...server, cwd: server.cwd ?? "." };
        if (!trusted) {
          const reason = `waiting for approval: ${waiting ?? `project file ${project.file} is not trusted; run \`toolpool trust ${project.file}\``}`;
          specs.push({ ...toSpec(fullName, { ...entry, disabled: true }, project.file, root, env), project: root, untrusted: reason });
          continue;
        }
        try {
          specs.push({ ...toSpec(fullName, entry, project.file, root, env, choice), project: root, ...(pins && { pins }) });
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
      const verdict = this.trust.verdict(project);
      return verdict.trusted
        ? { root, project, trusted: true, pins: verdict.pins, trustedAt: verdict.trustedAt }
        : { root, project, trusted: false, waiting: verdict.reason };
    } catch (error) {
      if (!(error instanceof ProjectFileError)) throw error;
      return { root, error: error.message, trusted: false };
    }
  }
}

function fingerprint(state: ProjectState): string {
  // The approval's time and pins too: approving again (the same bytes) must reach a server that a
  // changed file had stopped from starting.
  return JSON.stringify([state.project?.file, state.project?.sha256, state.trusted, state.error, state.waiting, state.trustedAt, state.pins]);
}

function realRoot(root: string): string | undefined {
  try {
    return realpathSync(root);
  } catch {
    return undefined;
  }
}
