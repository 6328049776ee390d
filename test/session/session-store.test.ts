/** Sessions by id, aged by a clock passed in: eviction is tested by moving time, not by waiting. */
import { describe, expect, test } from "bun:test";
import { DETACHED_SESSION_TTL_MS } from "../../src/protocol/limits.ts";
import type { Clock } from "../../src/runtime/clock.ts";
import { SessionStore } from "../../src/session/session-store.ts";
import { resolveSettings } from "../../src/session/settings.ts";
import { parseConfig } from "../../src/config/load.ts";

const settings = () => resolveSettings({}, { config: parseConfig({}, "test"), env: {}, daemonCwd: process.cwd(), prefetchCompiled: false });

describe("SessionStore", () => {
  test("a detached session outlives its connection for the TTL, then goes; an attached one stays", () => {
    let now = 1_000_000;
    const clock: Clock = { now: () => now };
    const store = new SessionStore(clock);
    const kept = store.create(settings(), "kept");
    const left = store.create(settings(), "left");
    store.attach(kept);
    store.attach(left);
    store.detach(left);
    expect(left.lastActiveAt).toBe(now);
    now += DETACHED_SESSION_TTL_MS - 1;
    store.create(settings(), "probe");
    expect(store.get("left")).toBe(left);
    now += 2;
    store.create(settings(), "probe-2");
    expect([store.get("left"), store.get("kept")]).toEqual([undefined, kept]);
    expect(store.counts()).toEqual({ active: 1, detached: 2 });
  });
});
