/**
 * Metrics for a daemon: the no-op unless telemetry is switched on, else the OpenTelemetry SDK,
 * required here and only here so that cold start and idle memory do not move when it is off.
 */
import { requireEmbedded } from "../runtime/embedded-module.ts";
import type { Logger } from "../runtime/logger.ts";
import { noopMetrics, type Metrics } from "./metrics.ts";
import { resolveTelemetry, type TelemetryConfig } from "./telemetry-settings.ts";

export interface CreateMetricsOptions {
  config: TelemetryConfig | undefined;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  service: { version: string; tier: string };
}

/** Throws ConfigError for a telemetry setting it cannot use (the daemon refuses to start). */
export function createMetrics({ config, env, logger, service }: CreateMetricsOptions): Metrics {
  const settings = resolveTelemetry(config, env);
  if (!settings) return noopMetrics;
  const { createOtelMetrics } = requireEmbedded<typeof import("./otel-metrics.ts")>("telemetry/otel-metrics");
  logger.info("telemetry on: sending metrics", { url: settings.url, protocol: settings.protocol, intervalMs: settings.exportIntervalMs });
  return createOtelMetrics({ settings, logger, service });
}

