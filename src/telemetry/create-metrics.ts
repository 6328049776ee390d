/**
 * Metrics for a daemon: the no-op unless telemetry is switched on, else the OpenTelemetry SDK,
 * required here and only here so that cold start and idle memory do not move when it is off.
 */
import { join } from "node:path";
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
  const { createOtelMetrics } = require(otelModulePath()) as typeof import("./otel-metrics.ts");
  logger.info("telemetry on: sending metrics", { url: settings.url, protocol: settings.protocol, intervalMs: settings.exportIntervalMs });
  return createOtelMetrics({ settings, logger, service });
}

/**
 * A computed path, so the bundler leaves the SDK out of the main bundle: build.ts embeds
 * otel-metrics.ts as its own entrypoint, at telemetry/otel-metrics.js beside the bundle (whose
 * import.meta.dir is the embedded root); from source it is the file next to this one.
 */
function otelModulePath(): string {
  const compiled = import.meta.dir.includes("$bunfs") || import.meta.dir.includes("~BUN");
  return compiled ? join(import.meta.dir, "telemetry", "otel-metrics.js") : join(import.meta.dir, "otel-metrics.ts");
}
