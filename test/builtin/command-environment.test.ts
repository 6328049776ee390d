import { describe, expect, test } from "bun:test";
import { commandEnvironment } from "../../src/builtin/command-environment.ts";

describe("commandEnvironment", () => {
  test("the daemon's telemetry credentials never reach a command; everything else does, the call's own values last", () => {
    const env = commandEnvironment(
      { PATH: "/usr/bin", OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer s", OTEL_EXPORTER_OTLP_METRICS_HEADERS: "k=v", OTEL_EXPORTER_OTLP_CLIENT_KEY: "/k.pem", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", TMPDIR: "/tmp" },
      { TMPDIR: "/t/call" },
    );
    expect(env).toEqual({ PATH: "/usr/bin", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", TMPDIR: "/t/call" });
  });
});
