/** Closed-loop NDJSON load: each client keeps one request outstanding and times every round trip. */
import { connect, type Socket } from "node:net";

export interface LoadResult {
  clients: number;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

class LoadClient {
  #pending = "";
  #resolve: (() => void) | undefined;
  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.#pending += chunk.toString("utf8");
      const newline = this.#pending.indexOf("\n");
      if (newline === -1) return;
      this.#pending = this.#pending.slice(newline + 1);
      const resolve = this.#resolve;
      this.#resolve = undefined;
      resolve?.();
    });
  }

  static open(path: string): Promise<LoadClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once("connect", () => resolve(new LoadClient(socket)));
      socket.once("error", reject);
    });
  }

  roundTrip(line: string): Promise<void> {
    return new Promise((resolve) => {
      this.#resolve = resolve;
      this.socket.write(line);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

export async function runLoad(
  socketPath: string,
  clients: number,
  makeLine: (id: number) => string,
  durationMs: number,
  warmupRequests = 2000,
): Promise<LoadResult> {
  const connections = await Promise.all(Array.from({ length: clients }, () => LoadClient.open(socketPath)));
  let nextId = 1;
  for (const client of connections) for (let index = 0; index < warmupRequests / clients + 1; index++) await client.roundTrip(makeLine(nextId++));
  const samples: number[] = [];
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    connections.map(async (client) => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        await client.roundTrip(makeLine(nextId++));
        samples.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const client of connections) client.close();
  samples.sort((a, b) => a - b);
  return {
    clients,
    requests: samples.length,
    seconds: round(seconds, 3),
    requestsPerSecond: Math.round(samples.length / seconds),
    p50Ms: round(percentile(samples, 0.5), 4),
    p99Ms: round(percentile(samples, 0.99), 4),
  };
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
