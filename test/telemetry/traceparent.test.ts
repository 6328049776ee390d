// test-plan: one tier — trace context on MCP requests, no feature() on its path.
/**
 * While telemetry is on, each tool call is a span and the MCP requests it makes carry the span's
 * W3C `traceparent` in `_meta`: to a 2026-07-28 server and, as plain `_meta`, to a 2025 one. Each
 * call is its own span; with telemetry off no `traceparent` is sent.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { meteredCall } from "../../src/telemetry/metered-call.ts";
import { noopMetrics } from "../../src/telemetry/metrics.ts";
import { formatTraceparent, parseTraceparent, startSpan } from "../../src/telemetry/trace-context.ts";
import { textResult } from "../../src/tool/result.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { FAST_BACKOFF, tempDir, waitFor } from "../mcp/helpers.ts";
import { startCollector } from "./otlp-collector.ts";

setDefaultTimeout(30_000);

const FIXTURES = join(import.meta.dir, "..", "fixtures", "mcp");

describe("traceparent", () => {
  test("parsed and formatted per W3C Trace Context: version 00, lowercase hex, no all-zero id", () => {
    const span = startSpan();
    expect(parseTraceparent(formatTraceparent(span))).toEqual(span);
    expect(formatTraceparent(span)).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const child = startSpan(span);
    expect({ trace: child.traceId, flags: child.flags, newSpan: child.spanId !== span.spanId }).toEqual({ trace: span.traceId, flags: "01", newSpan: true });
    for (const bad of [`00-${"0".repeat(32)}-${"1".repeat(16)}-01`, `00-${"1".repeat(32)}-${"0".repeat(16)}-01`, `01-${"1".repeat(32)}-${"1".repeat(16)}-01`, `00-${"A".repeat(32)}-${"1".repeat(16)}-01`, "00-abc-def-01", 42]) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
    // An all-zero draw is drawn again.
    const draws = ["00000000", "0000000000000000", "ab".repeat(16), "cd".repeat(8)];
    expect(startSpan(undefined, () => draws.shift() ?? "")).toEqual({ traceId: "ab".repeat(16), spanId: "cd".repeat(8), flags: "01" });
  });

  test("a metered call runs with a traceparent only while telemetry is on", async () => {
    const seen: (string | undefined)[] = [];
    const run = async (_refused: () => void, traceparent?: string) => {
      seen.push(traceparent);
      return textResult("ok");
    };
    const enabled = { ...noopMetrics, enabled: true, call: () => {} };
    await meteredCall(enabled, { tool: undefined, delivery: () => "proxy" }, run);
    await meteredCall(noopMetrics, { tool: undefined, delivery: () => "proxy" }, run);
    expect({ valid: parseTraceparent(seen[0]) !== undefined, off: seen[1] }).toEqual({ valid: true, off: undefined });
  });

  for (const telemetry of [true, false]) {
    test(`telemetry ${telemetry ? "on: each call's requests to a 2026-07-28 and a 2025-06-18 server carry its span's traceparent" : "off: no traceparent is sent"}`, async () => {
      using collector = startCollector();
      const moonLog = join(tempDir(), "moon.jsonl");
      const tideLog = join(tempDir(), "tide.jsonl");
      const mcpServers = {
        moon: { command: process.execPath, args: [join(FIXTURES, "revision-2026-server.ts")], env: { FIXTURE_LOG_FILE: moonLog }, timeoutMs: 10_000 },
        tide: { command: process.execPath, args: [join(FIXTURES, "revision-2025-06-18-server.ts")], env: { FIXTURE_LOG_FILE: tideLog }, timeoutMs: 10_000 },
      };
      const env = telemetry ? { TOOLPOOL_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" } : {};
      const daemon = new Daemon({
        socketPath: `${tempSocketDir()}/d.sock`,
        usageDatabasePath: ":memory:",
        config: parseConfig({ mcpServers }, "test"),
        configSource: { path: null, explicit: false },
        builtins: [],
        logger: silentLogger,
        env: { PATH: process.env.PATH ?? "", ...env },
        mcpOptions: { cachePath: null, backoff: FAST_BACKOFF, graceMs: 500 },
      });
      await daemon.start();
      try {
        using client = await RawClient.open(daemon.socketPath);
        await waitFor(() => daemon.core.mcp()?.server("moon")?.state === "connected" && daemon.core.mcp()?.server("tide")?.state === "connected", "both servers connected");
        for (const [name, input] of [["mcp__moon__lunar_phase", { date: "2026-08-28" }], ["mcp__moon__lunar_phase", { date: "2026-09-01" }], ["mcp__tide__tide_table", { harbour: "Brest" }]] as const) {
          const response = await client.request("toolpool/call", { name, input });
          expect(response.error).toBeUndefined();
        }
      } finally {
        await daemon.stop("test finished");
      }
      const calls = (log: string) =>
        (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [])
          .map((line) => JSON.parse(line) as { method: string; _meta?: Record<string, unknown> })
          .filter((request) => request.method === "tools/call")
          .map((request) => request._meta?.traceparent);
      const sent = [...calls(moonLog), ...calls(tideLog)];
      if (!telemetry) {
        expect(sent).toEqual([undefined, undefined, undefined]);
        return;
      }
      const spans = sent.map((value) => parseTraceparent(value));
      expect(spans.every((span) => span !== undefined && span.flags === "01")).toBe(true);
      // Each call is its own span (and, with no caller trace to continue, its own trace).
      expect(new Set(spans.map((span) => span?.spanId)).size).toBe(3);
      expect(new Set(spans.map((span) => span?.traceId)).size).toBe(3);
    });
  }
});
