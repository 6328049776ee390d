import { expect, test } from "bun:test";
import { createLogger } from "../../src/runtime/logger.ts";
import { UsageService } from "../../src/usage/usage-service.ts";

const session = { sessionId: "s", workspace: "/w" };
const call = { ...session, tool: "Read", durationMs: 1, isError: false, timedOut: false, truncated: false, known: true };

test("a fault while recording drops the event and is logged once; it never reaches the caller", () => {
  const lines: string[] = [];
  const service = new UsageService({
    databasePath: ":memory:",
    logger: createLogger("error", (line) => lines.push(line)),
    now: () => {
      throw new Error("clock broke");
    },
  });
  expect(() => service.call(call)).not.toThrow();
  expect(() => service.search({ ...session, kind: "keyword", query: "q", results: [], selectMisses: 0, didYouMean: false })).not.toThrow();
  expect(lines.map((line) => JSON.parse(line).message)).toEqual(["usage recording failed; such events are dropped"]);
  service.close();
});

test("usage_recording off: nothing is recorded, and the database is never opened", async () => {
  const service = new UsageService({ databasePath: "/nonexistent/dir/usage.sqlite", logger: createLogger("error", () => {}), recording: () => false });
  service.call(call);
  expect(service.queue).toEqual({ size: 0, dropped: 0 });
  service.close();
});

test("a prior loaded before more calls keeps learning from them; clear forgets it", async () => {
  const service = new UsageService({ databasePath: ":memory:", logger: createLogger("error", () => {}) });
  service.call(call);
  const prior = service.prior("/w");
  expect(prior.calls("Read")).toBe(1);
  service.call(call);
  expect(prior.calls("Read")).toBe(2);
  expect((await service.stats()).calls.total).toBe(2);
  expect(service.clear("/w")).toBeGreaterThan(0);
  expect(service.prior("/w").calls("Read")).toBe(0);
  service.close();
});
