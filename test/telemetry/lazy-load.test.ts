/** Off, the OpenTelemetry SDK is never loaded (cold start and idle memory do not pay for it); on, it is. */
import { expect, test } from "bun:test";
import { join } from "node:path";

async function probe(mode: "on" | "off"): Promise<{ enabled: boolean; otelModules: number }> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "fixtures", "load-probe.ts"), mode], { stdout: "pipe", stderr: "inherit", env: { PATH: process.env.PATH ?? "" } });
  const [text, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  expect(code).toBe(0);
  return JSON.parse(text) as { enabled: boolean; otelModules: number };
}

test("createMetrics loads no @opentelemetry module when telemetry is off, and the SDK when it is on", async () => {
  expect(await probe("off")).toEqual({ enabled: false, otelModules: 0 });
  const on = await probe("on");
  expect(on.enabled).toBe(true);
  expect(on.otelModules).toBeGreaterThan(0);
});
