// test-plan: one tier — the OTLP export, no feature() on its path.
/**
 * OpenTelemetry metrics from an in-process daemon to a loopback OTLP/HTTP collector the test starts:
 * searches, a zero-result search, calls (built-in, MCP, refused, unknown) and server state arrive with
 * their attributes; no query text, tool input or unknown tool name ever does; off sends nothing.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { z } from "zod";
import { parseConfig } from "../../src/config/load.ts";
import { STOP_BUDGET_MS } from "../../src/protocol/limits.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { FAST_BACKOFF, FIXTURE_SERVER, waitFor } from "../mcp/helpers.ts";
import { latest, startCollector, startConnectionCounter, type CollectedRequest } from "./otlp-collector.ts";

setDefaultTimeout(30_000);

const weatherTool = buildTool({
  name: "WeatherForecast",
  description: "Get the weather forecast for a city: temperature, rain and wind for the next days.",
  inputSchema: z.strictObject({ city: z.string() }),
  shouldDefer: true,
  isReadOnly: () => true,
  call: async ({ city }) => textResult(`Sunny in ${city}`),
});

const noteTool = buildTool({
  name: "Note",
  description: "Writes a note.",
  inputSchema: z.strictObject({ text: z.string() }),
  permissionSubject: (input) => (typeof input.text === "string" ? input.text : undefined),
  call: async ({ text }) => textResult(text),
});

// Words that must never leave in a metric: in a query, in an input, as an unknown tool's name.
const SECRET_QUERY = "weather zanzibarsecretquery";
const SECRET_ZERO = "qwxzsecretnothing";
const SECRET_INPUT = "secret-input-7731";
const SECRET_NAME = "NoSuchToolSecretName";

async function startDaemon(env: Record<string, string>, config: Record<string, unknown> = {}) {
  const mcpServers = { fx: { command: process.execPath, args: [FIXTURE_SERVER], timeoutMs: 10_000 } };
  const socketPath = `${tempSocketDir()}/d.sock`;
  const daemon = new Daemon({
    socketPath,
    config: parseConfig({ mcpServers, permissions: { deny: ["Note(denied*)"] }, ...config }, "test"),
    configSource: { path: null, explicit: false },
    builtins: [echoTool, noteTool, weatherTool],
    logger: silentLogger,
    env: { PATH: process.env.PATH ?? "", ...env },
    mcpOptions: { cachePath: null, backoff: FAST_BACKOFF, graceMs: 500 },
  });
  await daemon.start();
  return daemon;
}

async function ok(client: RawClient, method: string, params: Record<string, unknown>) {
  const response = await client.request(method, params);
  if (response.error) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

async function workload(daemon: Daemon): Promise<void> {
  using client = await RawClient.open(daemon.socketPath);
  await ok(client, "toolpool/session", { model: "gpt-5", provider: "openai", format: "openai", delivery: "proxy" });
  await waitFor(async () => JSON.stringify(await ok(client, "toolpool/tools", {})).includes("mcp__fx__echo"), "the fixture's tools");
  await ok(client, "toolpool/assemble", { messages: [] });
  await ok(client, "toolpool/call", { name: "ToolSearch", input: { query: SECRET_QUERY } });
  await ok(client, "toolpool/call", { name: "ToolSearch", input: { query: SECRET_ZERO } });
  await ok(client, "toolpool/search", { query: "echo text" });
  await ok(client, "toolpool/call", { name: "Echo", input: { text: SECRET_INPUT } });
  await ok(client, "toolpool/call", { name: "Note", input: { text: `denied ${SECRET_INPUT}` } });
  await ok(client, "toolpool/call", { name: "mcp__fx__echo", input: { text: SECRET_INPUT } });
  await ok(client, "toolpool/call", { name: SECRET_NAME, input: { text: SECRET_INPUT } });
  await ok(client, "toolpool/call", { name: "ToolSearch", input: { query: "select:mcp__fx__echo" } });
  await ok(client, "toolpool/call", { name: "ExecuteExtraTool", input: { tool_name: "mcp__fx__echo", params: { text: SECRET_INPUT } } });
}

function leaked(requests: readonly CollectedRequest[]): string[] {
  const text = requests.map((request) => new TextDecoder().decode(request.body)).join("\n");
  return ["zanzibarsecretquery", SECRET_ZERO, SECRET_INPUT, SECRET_NAME].filter((secret) => text.includes(secret));
}

describe("OpenTelemetry metrics", () => {
  test("http/json: searches, a zero-result search, calls and server state, with attributes and no query text", async () => {
    using collector = startCollector();
    const daemon = await startDaemon({
      TOOLPOOL_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_METRIC_EXPORT_INTERVAL: "200",
      OTEL_SERVICE_NAME: "tp-test",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=ci,team=a%20b",
    });
    try {
      await workload(daemon);
      const has = (metric: string, attributes: Record<string, unknown>) =>
        latest(collector.requests).find((point) => point.metric === metric && Object.entries(attributes).every(([key, value]) => point.attributes[key] === value));
      await waitFor(() => has("toolpool.mcp.server.up", { server: "fx", state: "connected" }) && has("toolpool.tool.calls", { tool: "(unknown)" }), "an export with the workload");
    } finally {
      await daemon.stop("test finished");
    }
    const tier = daemon.info.tier;
    const series = latest(collector.requests);
    const value = (metric: string, attributes: Record<string, unknown>) =>
      series.find((point) => point.metric === metric && JSON.stringify(point.attributes) === JSON.stringify(attributes))?.value;
    expect(collector.requests.every((request) => request.path === "/v1/metrics" && request.contentType.startsWith("application/json"))).toBe(true);
    expect(value("toolpool.search.count", { kind: "keyword", source: "tool_search", tier, delivery: "proxy" })).toBe(2);
    expect(value("toolpool.search.zero_results", { kind: "keyword", source: "tool_search", tier, delivery: "proxy" })).toBe(1);
    expect(value("toolpool.search.count", { kind: "keyword", source: "cli", tier })).toBe(1);
    expect(value("toolpool.tool.calls", { tool: "Echo", outcome: "ok", delivery: "proxy", tier })).toBe(1);
    expect(value("toolpool.tool.calls", { tool: "Note", outcome: "refused", delivery: "proxy", tier })).toBe(1);
    expect(value("toolpool.tool.calls", { tool: "mcp__fx__echo", outcome: "ok", delivery: "proxy", tier, server: "fx" })).toBe(1);
    expect(value("toolpool.tool.calls", { tool: "(unknown)", outcome: "refused", delivery: "proxy", tier })).toBe(1);
    expect(value("toolpool.tool.calls", { tool: "ToolSearch", outcome: "ok", delivery: "proxy", tier })).toBe(3);
    expect(value("toolpool.search.count", { kind: "select", source: "tool_search", tier, delivery: "proxy" })).toBe(1);
    // Through ExecuteExtraTool: counted as itself, and as the tool it ran (via).
    expect(value("toolpool.tool.calls", { tool: "ExecuteExtraTool", outcome: "ok", delivery: "proxy", tier })).toBe(1);
    expect(value("toolpool.tool.calls", { tool: "mcp__fx__echo", outcome: "ok", delivery: "proxy", tier, server: "fx", via: "ExecuteExtraTool" })).toBe(1);
    expect(value("toolpool.tool.duration", { tool: "mcp__fx__echo", outcome: "ok", delivery: "proxy", tier, server: "fx" })).toBe(1);
    // Proxy delivery sends two meta-tools instead of the deferred definitions; a small pool may save little.
    expect(series.find((point) => point.metric === "toolpool.tokens.saved")?.attributes).toEqual({ delivery: "proxy", counter: "chars/2.5 (estimate)", tier });
    const resource = JSON.stringify((collector.requests[0]?.json as { resourceMetrics: { resource: unknown }[] }).resourceMetrics[0]?.resource);
    for (const expected of ['"service.name"', '"tp-test"', '"deployment.environment"', '"ci"', '"a b"', '"toolpool.tier"']) expect(resource).toContain(expected);
    expect(leaked(collector.requests)).toEqual([]);
  });

  test("http/protobuf: the protobuf content type, a non-empty body with the metric names, and still no query text", async () => {
    using collector = startCollector();
    const daemon = await startDaemon({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${collector.url}/custom/metrics`, OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" }, { telemetry: { enabled: true } });
    try {
      await workload(daemon);
    } finally {
      // The export interval is the default minute: only the flush on shutdown can have sent these.
      await daemon.stop("test finished");
    }
    expect(collector.requests.length).toBeGreaterThan(0);
    const request = collector.requests.at(-1) as CollectedRequest;
    expect({ path: request.path, contentType: request.contentType }).toEqual({ path: "/custom/metrics", contentType: "application/x-protobuf" });
    const text = new TextDecoder().decode(request.body);
    for (const name of ["toolpool.search.count", "toolpool.search.zero_results", "toolpool.tool.calls", "toolpool.tool.duration", "toolpool.tokens.saved", "mcp__fx__echo", "(unknown)"]) {
      expect(text).toContain(name);
    }
    expect(leaked(collector.requests)).toEqual([]);
  });

  test("a collector that accepts and never answers does not hold the stop past its budget", async () => {
    await using stuck = await startConnectionCounter({ hang: true });
    const daemon = await startDaemon({ TOOLPOOL_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: stuck.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
    await workload(daemon);
    const started = performance.now();
    await daemon.stop("test finished");
    expect(stuck.connections()).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(STOP_BUDGET_MS);
  });

  test("off by default: an OTLP endpoint in the environment alone makes no connection", async () => {
    await using counter = await startConnectionCounter();
    const daemon = await startDaemon({ OTEL_EXPORTER_OTLP_ENDPOINT: counter.url, OTEL_METRIC_EXPORT_INTERVAL: "100" });
    try {
      expect(daemon.core.metrics.enabled).toBe(false);
      await workload(daemon);
    } finally {
      await daemon.stop("test finished");
    }
    expect(counter.connections()).toBe(0);
  });

  test("TOOLPOOL_TELEMETRY=0 wins over the config key", async () => {
    await using counter = await startConnectionCounter();
    const daemon = await startDaemon({ TOOLPOOL_TELEMETRY: "0", OTEL_EXPORTER_OTLP_ENDPOINT: counter.url }, { telemetry: { enabled: true } });
    try {
      expect(daemon.core.metrics.enabled).toBe(false);
      await workload(daemon);
    } finally {
      await daemon.stop("test finished");
    }
    expect(counter.connections()).toBe(0);
  });
});
