/**
 * The OpenTelemetry implementation of Metrics: the JS SDK's MeterProvider with a periodic reader
 * and an OTLP/HTTP exporter (JSON or protobuf). Required only when telemetry is on, so a daemon
 * that does not send metrics never loads the SDK.
 */
import type { Attributes } from "@opentelemetry/api";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import { OTLPMetricExporter as JsonExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtobufExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import type { Logger } from "../runtime/logger.ts";
import type { CallEvent, Metrics, SearchEvent, ServerUpSource, TokensEvent } from "./metrics.ts";
import type { TelemetrySettings } from "./telemetry-settings.ts";

/** Milliseconds; the SDK's default buckets stop at 10 s, and MCP calls may run for minutes. */
const DURATION_BUCKETS_MS = [1, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000];
/** Stands for a called name that is not in the pool: the name itself came from a client. */
export const UNKNOWN_TOOL = "(unknown)";

export interface OtelMetricsOptions {
  settings: TelemetrySettings;
  logger: Logger;
  /** Resource and data-point facts about this daemon. */
  service: { version: string; tier: string };
}

export function createOtelMetrics({ settings, logger, service }: OtelMetricsOptions): Metrics {
  const exporterOptions = { url: settings.url, timeoutMillis: settings.exportTimeoutMs };
  const exporter = settings.protocol === "http/json" ? new JsonExporter(exporterOptions) : new ProtobufExporter(exporterOptions);
  const reader = new PeriodicExportingMetricReader({
    exporter: reportingFailures(exporter, logger, settings.url),
    exportIntervalMillis: settings.exportIntervalMs,
    exportTimeoutMillis: settings.exportTimeoutMs,
  });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({
      ...settings.resourceAttributes,
      "service.name": settings.serviceName,
      "service.version": service.version,
      "toolpool.tier": service.tier,
    }),
    readers: [reader],
  });
  const meter = provider.getMeter("toolpool", service.version);
  const tier = service.tier;
  const searches = meter.createCounter("toolpool.search.count", { description: "Tool searches (ToolSearch calls and toolpool/search)", unit: "{search}" });
  const zeroResults = meter.createCounter("toolpool.search.zero_results", { description: "Tool searches that returned no tool", unit: "{search}" });
  const calls = meter.createCounter("toolpool.tool.calls", { description: "Tool calls, by tool, server and outcome", unit: "{call}" });
  const duration = meter.createHistogram("toolpool.tool.duration", {
    description: "Tool call duration, from the request to the result",
    unit: "ms",
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_MS },
  });
  const tokensSaved = meter.createUpDownCounter("toolpool.tokens.saved", {
    description: "Tokens an assembled tools array saved against sending every tool in full (negative when deferral cost more)",
    unit: "{token}",
  });
  const serverUp = meter.createObservableGauge("toolpool.mcp.server.up", { description: "1 when the MCP server is connected, else 0", unit: "1" });
  const serverSources: Array<() => readonly ServerUpSource[]> = [];
  serverUp.addCallback((result) => {
    for (const read of serverSources) {
      for (const server of read()) result.observe(server.state === "connected" ? 1 : 0, { server: server.name, state: server.state, tier });
    }
  });

  return {
    enabled: true,
    search(event: SearchEvent) {
      const attributes: Attributes = { kind: event.kind, source: event.source, tier, ...(event.delivery && { delivery: event.delivery }) };
      searches.add(1, attributes);
      if (event.results === 0) zeroResults.add(1, attributes);
    },
    call(event: CallEvent) {
      const attributes: Attributes = {
        tool: event.tool ?? UNKNOWN_TOOL,
        outcome: event.outcome,
        delivery: event.delivery,
        tier,
        ...(event.server && { server: event.server }),
        ...(event.via && { via: event.via }),
      };
      calls.add(1, attributes);
      duration.record(Math.max(0, event.durationMs), attributes);
    },
    tokensSaved(event: TokensEvent) {
      if (Number.isFinite(event.saved)) tokensSaved.add(Math.round(event.saved), { delivery: event.delivery, counter: event.counter, tier });
    },
    watchServers(read) {
      serverSources.push(read);
    },
    async shutdown(timeoutMs) {
      // The final export of what is pending; a collector that does not answer must not hold the stop.
      await Promise.race([provider.shutdown({ timeoutMillis: timeoutMs }).catch(() => {}), Bun.sleep(timeoutMs)]);
    },
  };
}

/**
 * The SDK reports a failed export to a global handler that prints nothing; this says it in the
 * daemon's log, once per run of failures (a collector that is down must not flood the log).
 */
function reportingFailures(exporter: PushMetricExporter, logger: Logger, url: string): PushMetricExporter {
  let failing = false;
  return {
    export(metrics: ResourceMetrics, done: (result: ExportResult) => void) {
      exporter.export(metrics, (result) => {
        if (result.code !== ExportResultCode.SUCCESS && !failing) {
          failing = true;
          logger.warn("metrics export failed; will retry at the next interval", { url, error: result.error?.message ?? "unknown error" });
        } else if (result.code === ExportResultCode.SUCCESS && failing) {
          failing = false;
          logger.info("metrics export recovered", { url });
        }
        done(result);
      });
    },
    forceFlush: () => exporter.forceFlush(),
    shutdown: () => exporter.shutdown(),
    ...(exporter.selectAggregationTemporality && { selectAggregationTemporality: exporter.selectAggregationTemporality.bind(exporter) }),
    ...(exporter.selectAggregation && { selectAggregation: exporter.selectAggregation.bind(exporter) }),
  };
}
