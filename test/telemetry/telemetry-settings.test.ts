/** Which telemetry settings win, and every value that cannot be used is refused with its name. */
import { describe, expect, test } from "bun:test";
import { parseResourceAttributes, resolveTelemetry } from "../../src/telemetry/telemetry-settings.ts";

describe("telemetry settings", () => {
  test("off unless asked: an endpoint alone, or nothing at all, sends nothing", () => {
    expect(resolveTelemetry(undefined, {})).toBeUndefined();
    expect(resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBeUndefined();
    expect(resolveTelemetry({ enabled: false }, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBeUndefined();
  });

  test("TOOLPOOL_TELEMETRY=1 with defaults: the local collector port, protobuf, a minute", () => {
    expect(resolveTelemetry(undefined, { TOOLPOOL_TELEMETRY: "1" })).toEqual({
      url: "http://localhost:4318/v1/metrics",
      protocol: "http/protobuf",
      exportIntervalMs: 60_000,
      exportTimeoutMs: 30_000,
      serviceName: "toolpool",
      resourceAttributes: {},
    });
  });

  test("the standard variables: signal endpoint as given, generic one with /v1/metrics, protocol, interval, names", () => {
    const env = {
      TOOLPOOL_TELEMETRY: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example:4318/base/",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_METRIC_EXPORT_INTERVAL: "5000",
      OTEL_RESOURCE_ATTRIBUTES: "service.name=from-attrs,host.role=ci",
    };
    expect(resolveTelemetry(undefined, env)).toMatchObject({ url: "https://otel.example:4318/base/v1/metrics", protocol: "http/json", exportIntervalMs: 5000, exportTimeoutMs: 5000, serviceName: "from-attrs" });
    expect(resolveTelemetry(undefined, { ...env, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://127.0.0.1:9/m", OTEL_SERVICE_NAME: "named" })).toMatchObject({ url: "http://127.0.0.1:9/m", serviceName: "named" });
    expect(resolveTelemetry(undefined, { ...env, OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/protobuf" })?.protocol).toBe("http/protobuf");
  });

  test("the config file wins over a variable for the same thing; the switches off win over the file", () => {
    const config = { enabled: true, endpoint: "http://127.0.0.1:4000", protocol: "http/json" as const, exportIntervalMs: 1000 };
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://elsewhere:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf", OTEL_METRIC_EXPORT_INTERVAL: "9000" };
    expect(resolveTelemetry(config, env)).toMatchObject({ url: "http://127.0.0.1:4000/v1/metrics", protocol: "http/json", exportIntervalMs: 1000 });
    for (const off of [{ TOOLPOOL_TELEMETRY: "0" }, { TOOLPOOL_TELEMETRY: "false" }, { OTEL_SDK_DISABLED: "true" }, { OTEL_METRICS_EXPORTER: "none" }]) {
      expect(resolveTelemetry(config, { ...env, ...off })).toBeUndefined();
    }
  });

  test("bad values are refused, naming the variable", () => {
    const on = { TOOLPOOL_TELEMETRY: "1" };
    expect(() => resolveTelemetry(undefined, { TOOLPOOL_TELEMETRY: "yes" })).toThrow('TOOLPOOL_TELEMETRY must be 1, true, 0 or false (got "yes")');
    expect(() => resolveTelemetry(undefined, { ...on, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow("OTEL_EXPORTER_OTLP_PROTOCOL: toolpool sends http/json or http/protobuf");
    expect(() => resolveTelemetry(undefined, { ...on, OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow("OTEL_EXPORTER_OTLP_ENDPOINT: an OTLP/HTTP endpoint must be http:// or https://");
    expect(() => resolveTelemetry(undefined, { ...on, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "not a url" })).toThrow('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: not a URL (got "not a url")');
    expect(() => resolveTelemetry(undefined, { ...on, OTEL_METRIC_EXPORT_INTERVAL: "10" })).toThrow("OTEL_METRIC_EXPORT_INTERVAL: milliseconds from 100 to 3600000");
    expect(() => resolveTelemetry(undefined, { ...on, OTEL_RESOURCE_ATTRIBUTES: "novalue" })).toThrow('OTEL_RESOURCE_ATTRIBUTES: expected key=value, got "novalue"');
  });

  test("resource attributes: percent-decoded, bounded in count and length", () => {
    expect(parseResourceAttributes(" a=1 , b=x%2Cy ,,")).toEqual({ a: "1", b: "x,y" });
    expect(() => parseResourceAttributes(Array.from({ length: 65 }, (_, index) => `k${index}=v`).join(","))).toThrow("at most 64 attributes (got 65)");
    expect(() => parseResourceAttributes(`k=${"v".repeat(256)}`)).toThrow("longer than 255 characters");
    expect(() => parseResourceAttributes("k=%E0%A4%A")).toThrow('bad percent-encoding in the value of "k"');
  });
});
