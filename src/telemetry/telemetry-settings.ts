/**
 * Whether metrics leave the daemon, and where to: the config's `telemetry` key and
 * `TOOLPOOL_TELEMETRY` switch it on; the standard OpenTelemetry variables say where and how.
 * A value set in the config file wins over the variable for the same thing; `TOOLPOOL_TELEMETRY=0`,
 * `OTEL_SDK_DISABLED=true` and `OTEL_METRICS_EXPORTER=none` switch it off whatever the file says.
 * An OTLP endpoint in the environment alone switches nothing on: many shells export one for other
 * programs, and nothing leaves this machine unless toolpool was asked to send it.
 */
import { ConfigError } from "../config/load.ts";

export type OtlpProtocol = "http/json" | "http/protobuf";

export interface TelemetryConfig {
  enabled?: boolean | undefined;
  endpoint?: string | undefined;
  protocol?: OtlpProtocol | undefined;
  exportIntervalMs?: number | undefined;
}

export interface TelemetrySettings {
  /** The full URL metrics are POSTed to (`…/v1/metrics`). */
  url: string;
  protocol: OtlpProtocol;
  exportIntervalMs: number;
  exportTimeoutMs: number;
  serviceName: string;
  /** From OTEL_RESOURCE_ATTRIBUTES. */
  resourceAttributes: Record<string, string>;
}

const DEFAULT_ENDPOINT = "http://localhost:4318";
const DEFAULT_INTERVAL_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 30_000;
export const MIN_INTERVAL_MS = 100;
export const MAX_INTERVAL_MS = 3_600_000;
const MAX_RESOURCE_ATTRIBUTES = 64;
const MAX_RESOURCE_TEXT = 255;

/** Undefined when telemetry is off. Throws ConfigError for a value it cannot use, naming it. */
export function resolveTelemetry(config: TelemetryConfig | undefined, env: NodeJS.ProcessEnv): TelemetrySettings | undefined {
  if (!isOn(config, env)) return undefined;
  const protocol = config?.protocol ?? protocolFromEnv(env);
  const url = config?.endpoint ? checkedUrl(config.endpoint, "telemetry.endpoint", true) : urlFromEnv(env);
  const exportIntervalMs = config?.exportIntervalMs ?? intervalFromEnv(env);
  const resourceAttributes = parseResourceAttributes(env.OTEL_RESOURCE_ATTRIBUTES ?? "");
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || resourceAttributes["service.name"] || "toolpool";
  // The SDK refuses a timeout longer than the interval.
  return { url, protocol, exportIntervalMs, exportTimeoutMs: Math.min(DEFAULT_TIMEOUT_MS, exportIntervalMs), serviceName, resourceAttributes };
}

function isOn(config: TelemetryConfig | undefined, env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  if (env.OTEL_METRICS_EXPORTER?.trim().toLowerCase() === "none") return false;
  const flag = env.TOOLPOOL_TELEMETRY?.trim().toLowerCase();
  if (flag === undefined || flag === "") return config?.enabled === true;
  if (flag === "1" || flag === "true") return true;
  if (flag === "0" || flag === "false") return false;
  throw new ConfigError(`TOOLPOOL_TELEMETRY must be 1, true, 0 or false (got ${quote(flag)})`);
}

function protocolFromEnv(env: NodeJS.ProcessEnv): OtlpProtocol {
  const name = env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ? "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const value = env[name]?.trim();
  if (!value) return "http/protobuf";
  if (value === "http/json" || value === "http/protobuf") return value;
  throw new ConfigError(`${name}: toolpool sends http/json or http/protobuf (got ${quote(value)}; grpc is not supported)`);
}

/** The signal-specific variable is the URL as given; the generic one gets `/v1/metrics` appended. */
function urlFromEnv(env: NodeJS.ProcessEnv): string {
  const specific = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim();
  if (specific) return checkedUrl(specific, "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", false);
  const generic = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || DEFAULT_ENDPOINT;
  return checkedUrl(generic, "OTEL_EXPORTER_OTLP_ENDPOINT", true);
}

function checkedUrl(value: string, name: string, appendPath: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name}: not a URL (got ${quote(value)})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`${name}: an OTLP/HTTP endpoint must be http:// or https:// (got ${quote(value)})`);
  if (!appendPath) return url.href;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}/v1/metrics${url.search}`;
}

function intervalFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.OTEL_METRIC_EXPORT_INTERVAL?.trim();
  if (!raw) return DEFAULT_INTERVAL_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < MIN_INTERVAL_MS || value > MAX_INTERVAL_MS) {
    throw new ConfigError(`OTEL_METRIC_EXPORT_INTERVAL: milliseconds from ${MIN_INTERVAL_MS} to ${MAX_INTERVAL_MS} (got ${quote(raw)})`);
  }
  return value;
}

/** `key1=value1,key2=value2`, values percent-encoded (the OpenTelemetry resource SDK format). */
export function parseResourceAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const entries = text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  if (entries.length > MAX_RESOURCE_ATTRIBUTES) throw new ConfigError(`OTEL_RESOURCE_ATTRIBUTES: at most ${MAX_RESOURCE_ATTRIBUTES} attributes (got ${entries.length})`);
  for (const entry of entries) {
    const equals = entry.indexOf("=");
    const key = entry.slice(0, equals).trim();
    if (equals <= 0 || key === "") throw new ConfigError(`OTEL_RESOURCE_ATTRIBUTES: expected key=value, got ${quote(entry)}`);
    let value: string;
    try {
      value = decodeURIComponent(entry.slice(equals + 1).trim());
    } catch {
      throw new ConfigError(`OTEL_RESOURCE_ATTRIBUTES: bad percent-encoding in the value of ${quote(key)}`);
    }
    if (key.length > MAX_RESOURCE_TEXT || value.length > MAX_RESOURCE_TEXT) throw new ConfigError(`OTEL_RESOURCE_ATTRIBUTES: ${quote(key.slice(0, 40))} is longer than ${MAX_RESOURCE_TEXT} characters`);
    attributes[key] = value;
  }
  return attributes;
}

function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
