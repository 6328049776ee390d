/**
 * One MCP server's tool list after it connected: `notifications/tools/list_changed` lists it again,
 * throttled (relist-throttle.ts), one loop per connection, ending on the server's latest list. The
 * first listing is part of connecting (server-life.ts).
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { CacheScope } from "./cache-scope.ts";
import type { Logger } from "../runtime/logger.ts";
import { RelistThrottle } from "./relist-throttle.ts";
import { findNeedsAuth } from "./server-auth.ts";
import type { ServerConnection } from "./server-connection.ts";
import type { ServerLife } from "./server-life.ts";
import { delay, type Timers } from "./timers.ts";

export interface ListingDeps {
  server: string;
  life: ServerLife;
  timers: Timers;
  logger: Logger;
  /** The server's call timeout, which also bounds a listing. */
  timeoutMs: () => number;
  onListing: (server: string, tools: McpTool[], scope?: CacheScope) => void;
}

export class ServerListing {
  readonly #throttle: RelistThrottle;
  readonly #changedWhileConnecting = new WeakSet<ServerConnection>();
  #relisting: { connection: ServerConnection; again: boolean } | undefined;

  constructor(private readonly deps: ListingDeps) {
    this.#throttle = new RelistThrottle(deps.timers);
  }

  /** The connection went live: a change announced while its first listing was in flight may have made that listing out of date. */
  connected(connection: ServerConnection): void {
    if (this.#changedWhileConnecting.has(connection)) this.changed(connection);
  }

  /** The server announced that its tool list changed. */
  changed(connection: ServerConnection): void {
    const { life } = this.deps;
    if (connection !== life.connection) {
      this.#changedWhileConnecting.add(connection);
      return;
    }
    // One loop per connection: a change on a new connection must not be left to the loop of an old
    // one, which stops once it sees its connection is gone.
    if (this.#relisting?.connection === connection) {
      this.#relisting.again = true;
      return;
    }
    const relisting = { connection, again: true };
    this.#relisting = relisting;
    void (async () => {
      try {
        // A change announced while a listing is under way (or while one fails) lists again: the
        // index must end on the server's latest list, not the one before its last change.
        while (relisting.again && connection === life.connection) {
          const waitMs = this.#throttle.take();
          if (waitMs > 0) await delay(this.deps.timers, waitMs);
          if (connection !== life.connection) return;
          // Every notification up to here is answered by this one listing.
          relisting.again = false;
          try {
            const listing = await connection.listTools(this.deps.timeoutMs());
            if (connection !== life.connection) return;
            this.deps.onListing(this.deps.server, listing.tools, listing.cacheScope);
          } catch (error) {
            const needsAuth = findNeedsAuth(error);
            if (needsAuth) return life.needsAuth(connection, needsAuth.message);
            this.deps.logger.warn("MCP tools re-listing failed", { server: this.deps.server, error: (error as Error).message });
          }
        }
      } finally {
        if (this.#relisting === relisting) this.#relisting = undefined;
      }
    })();
  }
}
