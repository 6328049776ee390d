/**
 * The daemon's usage service: the recorder every part of the daemon reports to, the store behind
 * it, and the per-workspace priors ranking reads. Recording only queues (see event-queue.ts); the
 * database is opened on the first flush or read, with `require`, so start-up never pays for it.
 * A database that cannot be opened switches recording off with one error in the log — usage is
 * worth less than a daemon that serves.
 */
import type { Logger } from "../runtime/logger.ts";
import type { StatsResult } from "../protocol/stats-result.ts";
import { EventQueue, type QueueTimers } from "./event-queue.ts";
import type { CallRecord, FirstRequestRecord, PrefetchRecord, SearchRecord, UsageRecorder } from "./usage-recorder.ts";
import { cut, MAX_NAME_CHARS, MAX_WORKSPACE_CHARS, type StoredEvent } from "./usage-schema.ts";
import { ServerTracker } from "./server-tracker.ts";
import { CONVERSION_WINDOW_CALLS, SessionTracker } from "./session-tracker.ts";
import type { UsageStore } from "./usage-store.ts";
import { WorkspacePrior } from "./workspace-prior.ts";
import { TOKEN_COUNTER } from "./token-estimate.ts";

/** Workspaces whose prior is kept in memory, least recently used dropped first. */
export const MAX_LOADED_PRIORS = 64;
export const DEFAULT_TOP = 10;

export interface UsageServiceOptions {
  /** The database file, or ":memory:". */
  databasePath: string;
  logger: Logger;
  now?: () => number;
  newKey?: () => string;
  /** Meta-tools (ToolSearch): recorded as calls, but they neither convert searches nor teach the prior. */
  isMeta?: (tool: string) => boolean;
  /** Read at every event: false records nothing (the `usage_recording` flag). */
  recording?: () => boolean;
  flushMs?: number;
  batchSize?: number;
  maxQueued?: number;
  timers?: QueueTimers;
}

export class UsageService implements UsageRecorder {
  readonly #options: UsageServiceOptions;
  readonly #now: () => number;
  readonly #tracker: SessionTracker;
  readonly #servers: ServerTracker;
  readonly #queue: EventQueue<StoredEvent>;
  readonly #priors = new Map<string, WorkspacePrior>();
  #store: UsageStore | undefined;
  #broken = false;
  #closed = false;
  #faulted = false;

  constructor(options: UsageServiceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    let sequence = 0;
    const boot = crypto.randomUUID();
    this.#tracker = new SessionTracker({
      now: this.#now,
      newKey: options.newKey ?? (() => `${boot}:${++sequence}`),
      isMeta: options.isMeta ?? (() => false),
    });
    this.#servers = new ServerTracker(this.#now);
    this.#queue = new EventQueue<StoredEvent>({
      write: (batch) => this.#open()?.write(batch),
      onError: (error, dropped) => options.logger.warn("usage history write failed; events dropped", { error: (error as Error).message, dropped }),
      ...(options.flushMs !== undefined && { flushMs: options.flushMs }),
      ...(options.batchSize !== undefined && { batchSize: options.batchSize }),
      ...(options.maxQueued !== undefined && { maxQueued: options.maxQueued }),
      ...(options.timers && { timers: options.timers }),
    });
  }

  get databasePath(): string {
    return this.#options.databasePath;
  }

  /** Events waiting to be written, and events dropped because the queue was full. */
  get queue(): { size: number; dropped: number } {
    return { size: this.#queue.size, dropped: this.#queue.dropped };
  }

  search(record: SearchRecord): void {
    this.#guard(() => this.#push(this.#tracker.search(record)));
  }

  call(record: CallRecord): void {
    this.#guard(() => {
      const events = this.#tracker.call(record);
      for (const event of events) {
        if (event.type === "use") this.#priors.get(event.workspace)?.used(event.tool, event.previous);
        else if (event.type === "searchCall") this.#priors.get(event.workspace)?.searched(event.terms, event.tool);
      }
      this.#push(events);
    });
  }

  prefetch(record: PrefetchRecord): void {
    if (record.suggestions.length > 0) this.#guard(() => this.#push(this.#tracker.prefetch(record)));
  }

  server(name: string, state: string): void {
    this.#guard(() => this.#push(this.#servers.transition(name, state)));
  }

  firstRequest(record: FirstRequestRecord): void {
    this.#guard(() => this.#push([
      {
        type: "firstRequest",
        at: this.#now(),
        workspace: cut(record.workspace, MAX_WORKSPACE_CHARS),
        session: cut(record.sessionId, MAX_NAME_CHARS),
        delivery: record.delivery,
        announcements: record.announcements,
        sentTokens: Math.round(record.sentTokens),
        standardTokens: Math.round(record.standardTokens),
        counter: record.counter,
      },
    ]));
  }

  /** True once per session: the caller measures that session's first request (the work is skipped after). */
  claimFirstRequest(sessionId: string): boolean {
    return this.#recording() && this.#tracker.firstRequest(sessionId);
  }

  /** The tool the session called last, if it called one of the pool's tools successfully. */
  lastTool(sessionId: string): string | null {
    return this.#tracker.lastTool(sessionId);
  }

  /** The workspace's prior, read from the database the first time it is asked for. */
  prior(rawWorkspace: string): WorkspacePrior {
    const workspace = cut(rawWorkspace, MAX_WORKSPACE_CHARS);
    const loaded = this.#priors.get(workspace);
    if (loaded) {
      this.#priors.delete(workspace);
      this.#priors.set(workspace, loaded);
      return loaded;
    }
    // What is still queued must be in the seed: from here on the calls update the prior directly.
    this.#queue.flush();
    let prior: WorkspacePrior;
    try {
      const store = this.#open();
      prior = new WorkspacePrior(store?.aggregates(workspace));
    } catch (error) {
      this.#options.logger.warn("usage history could not be read; ranking ignores it", { error: (error as Error).message });
      prior = new WorkspacePrior();
    }
    this.#priors.set(workspace, prior);
    if (this.#priors.size > MAX_LOADED_PRIORS) this.#priors.delete(this.#priors.keys().next().value!);
    return prior;
  }

  async stats(options: { sinceMs?: number; top?: number } = {}): Promise<StatsResult> {
    this.#queue.flush();
    const until = this.#now();
    const since = options.sinceMs === undefined ? null : until - options.sinceMs;
    const store = this.#open();
    const { readStats } = require("./stats-query.ts") as typeof import("./stats-query.ts");
    const { emptyStats } = require("./empty-stats.ts") as typeof import("./empty-stats.ts");
    const query = {
      since,
      until,
      top: options.top ?? DEFAULT_TOP,
      conversionWindow: CONVERSION_WINDOW_CALLS,
      counter: TOKEN_COUNTER,
      parkedNow: this.#servers.parkedNow(),
    };
    return store ? readStats(store.db, query) : emptyStats(query);
  }

  /** Clears one workspace's history (a resolved path) or all of it; returns the rows removed. */
  clear(workspace: string | null): number {
    this.#queue.flush();
    const key = workspace === null ? null : cut(workspace, MAX_WORKSPACE_CHARS);
    if (key !== null) {
      this.#priors.delete(key);
      return this.#open()?.clear(key) ?? 0;
    }
    this.#priors.clear();
    const store = this.#open();
    if (!store) return 0;
    if (this.#options.databasePath === ":memory:") return store.clear(null);
    // Everything: the files go (a big history is not rewritten row by row); the next write starts anew.
    const removed = store.countRows();
    store.close();
    this.#store = undefined;
    const { removeUsageFiles } = require("./usage-store.ts") as typeof import("./usage-store.ts");
    removeUsageFiles(this.#options.databasePath);
    return removed;
  }

  /** Writes what is queued and closes the database (again is a no-op). */
  close(): void {
    if (this.#closed) return;
    this.#queue.close();
    this.#closed = true;
    this.#store?.close();
    this.#store = undefined;
  }

  /** Recording is never a reason for a call to fail: a fault drops the event, logged once. */
  #guard(record: () => void): void {
    if (!this.#recording()) return;
    try {
      record();
    } catch (error) {
      if (this.#faulted) return;
      this.#faulted = true;
      this.#options.logger.error("usage recording failed; such events are dropped", { error: (error as Error).message });
    }
  }

  #recording(): boolean {
    return !this.#closed && !this.#broken && (this.#options.recording?.() ?? true);
  }

  #push(events: readonly StoredEvent[]): void {
    for (const event of events) this.#queue.push(event);
  }

  #open(): UsageStore | undefined {
    if (this.#store || this.#broken || this.#closed) return this.#store;
    try {
      const { UsageStore: Store } = require("./usage-store.ts") as typeof import("./usage-store.ts");
      this.#store = new Store(this.#options.databasePath);
    } catch (error) {
      this.#broken = true;
      this.#options.logger.error("usage history unavailable; nothing is recorded until restart", { path: this.#options.databasePath, error: (error as Error).message });
    }
    return this.#store;
  }
}
