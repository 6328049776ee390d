/**
 * A stand-in OTLP/HTTP collector on loopback for tests: records every request (path, content type,
 * raw body) and decodes JSON bodies, so a test can look at exactly what left the daemon.
 */
export interface CollectedRequest {
  path: string;
  contentType: string;
  body: Uint8Array;
  json?: unknown;
}

export interface Collector extends Disposable {
  url: string;
  requests: CollectedRequest[];
}

export function startCollector(): Collector {
  const requests: CollectedRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const body = new Uint8Array(await request.arrayBuffer());
      const contentType = request.headers.get("content-type") ?? "";
      const entry: CollectedRequest = { path: new URL(request.url).pathname, contentType, body };
      if (contentType.includes("json")) entry.json = JSON.parse(new TextDecoder().decode(body));
      requests.push(entry);
      return new Response(contentType.includes("json") ? "{}" : new Uint8Array(), { headers: { "content-type": contentType } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    [Symbol.dispose]: () => void server.stop(true),
  };
}

/** A bare TCP listener that counts connections: proof that nothing dialled, not just that nothing was sent. */
export async function startConnectionCounter(options: { hang?: boolean } = {}): Promise<{ url: string; connections: () => number } & AsyncDisposable> {
  const { createServer } = await import("node:net");
  let connections = 0;
  const held: import("node:net").Socket[] = [];
  // hang: accept and never answer, as a collector that is stuck would.
  const server = createServer((socket) => {
    connections++;
    if (options.hang) held.push(socket);
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        for (const socket of held) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

interface JsonPoint {
  attributes?: { key: string; value: Record<string, unknown> }[];
  asInt?: string | number;
  asDouble?: number;
  count?: string | number;
  sum?: number;
}

interface JsonMetric {
  name: string;
  unit?: string;
  sum?: { dataPoints: JsonPoint[] };
  gauge?: { dataPoints: JsonPoint[] };
  histogram?: { dataPoints: JsonPoint[] };
}

export interface Point {
  metric: string;
  attributes: Record<string, unknown>;
  value: number;
}

/** Every data point of every JSON export, flattened: a counter's value, a histogram's count. */
export function points(requests: readonly CollectedRequest[]): Point[] {
  const out: Point[] = [];
  for (const request of requests) {
    const body = request.json as { resourceMetrics?: { scopeMetrics?: { metrics?: JsonMetric[] }[] }[] } | undefined;
    for (const resource of body?.resourceMetrics ?? []) {
      for (const scope of resource.scopeMetrics ?? []) {
        for (const metric of scope.metrics ?? []) {
          const data = metric.sum ?? metric.gauge ?? metric.histogram;
          for (const point of data?.dataPoints ?? []) {
            const attributes: Record<string, unknown> = {};
            for (const attribute of point.attributes ?? []) attributes[attribute.key] = Object.values(attribute.value)[0];
            const value = metric.histogram ? Number(point.count) : Number(point.asInt ?? point.asDouble);
            out.push({ metric: metric.name, attributes, value });
          }
        }
      }
    }
  }
  return out;
}

/** The last exported value of each (metric, attributes) series: exports are cumulative. */
export function latest(requests: readonly CollectedRequest[]): Point[] {
  const series = new Map<string, Point>();
  for (const point of points(requests)) series.set(`${point.metric} ${JSON.stringify(Object.entries(point.attributes).sort())}`, point);
  return [...series.values()];
}
