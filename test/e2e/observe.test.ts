/**
 * Observing the compiled binary: OpenTelemetry metrics (the SDK bundled into the binary) reach a
 * loopback collector; `toolpool explain` answers over the socket; logs are text on a terminal
 * (a pty from `script`) and JSON elsewhere.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { binaryPath, runBinary, startBinaryDaemon, testTier } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { TIERS } from "../../features/tiers.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { latest, startCollector } from "../telemetry/otlp-collector.ts";

setDefaultTimeout(30_000);

async function ok(client: RawClient, method: string, params: Record<string, unknown>) {
  const response = await client.request(method, params);
  if (response.error) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

describe("observing the compiled binary", () => {
  for (const protocol of ["http/json", "http/protobuf"] as const) {
    test(`metrics over OTLP ${protocol}, flushed on SIGTERM, with no query text`, async () => {
      using collector = startCollector();
      const socketPath = join(tempSocketDir(), "m.sock");
      await using daemon = await startBinaryDaemon(socketPath, [], { TOOLPOOL_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol });
      {
        using client = await RawClient.open(socketPath);
        await ok(client, "toolpool/session", { model: "gpt-5", provider: "openai", delivery: "proxy" });
        await ok(client, "toolpool/call", { name: "ToolSearch", input: { query: "fetch a web page secretwordquery" } });
        await ok(client, "toolpool/call", { name: "Glob", input: { pattern: "*.secretpattern" } });
      }
      daemon.child.kill("SIGTERM");
      expect(await daemon.child.exited).toBe(0);
      expect(collector.requests.length).toBeGreaterThan(0);
      const body = collector.requests.map((request) => new TextDecoder().decode(request.body)).join("");
      expect(body).not.toContain("secretwordquery");
      expect(body).not.toContain("secretpattern");
      if (protocol === "http/json") {
        const calls = latest(collector.requests).filter((point) => point.metric === "toolpool.tool.calls");
        expect(calls.map((point) => [point.attributes.tool, point.value]).sort()).toEqual([["Glob", 1], ["ToolSearch", 1]]);
        expect(calls[0]?.attributes).toMatchObject({ delivery: "proxy", tier: testTier(), outcome: "ok" });
      } else {
        expect(collector.requests[0]?.contentType).toBe("application/x-protobuf");
        for (const name of ["toolpool.search.count", "toolpool.tool.calls", "toolpool.tool.duration", "Glob"]) expect(body).toContain(name);
      }
    });
  }

  test("toolpool explain over the socket: a discovered tool with its query, and did-you-mean for a typo", async () => {
    const socketPath = join(tempSocketDir(), "x.sock");
    await using _daemon = await startBinaryDaemon(socketPath);
    using client = await RawClient.open(socketPath);
    const { sessionId } = await ok(client, "toolpool/session", { model: "gpt-5", provider: "openai", delivery: "proxy" });
    await ok(client, "toolpool/call", { name: "ToolSearch", input: { query: "select:WebFetch" } });
    const found = await runBinary(["explain", "WebFetch", "--session", String(sessionId), "--json", "--socket", socketPath]);
    expect(found.code).toBe(0);
    const explained = JSON.parse(found.stdout) as { decisions: { step: string; via?: string; query?: string }[]; callable: boolean };
    expect(explained.callable).toBe(true);
    expect(explained.decisions.at(-1)).toMatchObject({ step: "discovered", via: "search", query: "select:WebFetch" });
    const typo = await runBinary(["explain", "WebFetc", "--socket", socketPath]);
    // Without --session the CLI answers for a new session with the daemon's defaults: another
    // connection's session is never picked for it.
    expect(typo.stdout.split("\n")[0]).toBe(`WebFetc (a new session with the daemon's defaults): no tool named "WebFetc"; did you mean WebFetch?`);
    expect(typo.code).toBe(0);
  });

  test("explain Sleep: compiled out of a tier without PROACTIVE, in the pool of one with it", async () => {
    const socketPath = join(tempSocketDir(), "s.sock");
    await using _daemon = await startBinaryDaemon(socketPath);
    const { stdout, code } = await runBinary(["explain", "Sleep", "--json", "--socket", socketPath]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { decisions: { step: string; verdict: string }[]; summary: string };
    const tier = testTier();
    if (TIERS[tier].includes("PROACTIVE" as never)) {
      expect(result.decisions[0]).toMatchObject({ step: "pool", verdict: "pass" });
    } else {
      expect(result.summary).toBe(`Sleep is not in this binary: tier ${tier} is built without PROACTIVE`);
      expect(result.decisions).toEqual([expect.objectContaining({ step: "compiled", verdict: "blocked" })]);
    }
  });

  test.skipIf(Bun.which("script") === null)("logs: text lines on a terminal (a pty), JSON when asked", async () => {
    for (const [extra, expectText] of [[[], true], [["--log-format", "json"], false]] as const) {
      const socketPath = join(tempSocketDir(), "t.sock");
      const command = [binaryPath(), "serve", "--socket", socketPath, "--log-level", "debug", ...extra].map((word) => `'${word}'`).join(" ");
      const child = Bun.spawn(["script", "-q", "-e", "-c", command, "/dev/null"], { stdout: "pipe", stderr: "pipe", stdin: "pipe", env: { ...process.env, NO_COLOR: "1" } });
      const chunks: string[] = [];
      const reading = (async () => {
        for await (const chunk of child.stdout) chunks.push(new TextDecoder().decode(chunk));
      })();
      const deadline = Date.now() + 15_000;
      while (!chunks.join("").includes("listening")) {
        if (Date.now() > deadline) throw new Error(`no listening line: ${chunks.join("")}`);
        await Bun.sleep(20);
      }
      const stopped = await runBinary(["stop", "--socket", socketPath]);
      expect(stopped.code).toBe(0);
      expect(await child.exited).toBe(0);
      await reading;
      const output = chunks.join("");
      if (expectText) {
        expect(output).toMatch(new RegExp(`\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  listening socket=\\S+ tier=${testTier()} version=\\S+ tools=\\d+`));
        expect(output).toMatch(/DEBUG search index synced/);
        expect(output).not.toContain('{"time"');
      } else {
        expect(output).toContain('"message":"listening"');
        expect(output).toContain('"level":"debug"');
      }
    }
  });

  test("a telemetry setting it cannot use refuses the start (exit 5), naming it", async () => {
    const bad = await runBinary(["serve", "--socket", join(tempSocketDir(), "b.sock")], { TOOLPOOL_TELEMETRY: "1", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    expect({ code: bad.code, stderr: bad.stderr.trim() }).toEqual({ code: 5, stderr: 'toolpool: OTEL_EXPORTER_OTLP_PROTOCOL: toolpool sends http/json or http/protobuf (got "grpc"; grpc is not supported)' });
  });

  test("a bad --log-level or --log-format is a usage error", async () => {
    const bad = await runBinary(["serve", "--socket", join(tempSocketDir(), "b.sock"), "--log-level", "loud"]);
    expect({ code: bad.code, stderr: bad.stderr.trim() }).toEqual({ code: 2, stderr: 'toolpool: --log-level takes one of debug, info, warn, error (got "loud")' });
  });
});
