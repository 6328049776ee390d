import { expect, test } from "bun:test";
import { createEvictionLog } from "../../src/bridge/eviction-log.ts";

test("200 evictions in one window make two lines: the first in full, the rest as one count", () => {
  const lines: string[] = [];
  const log = createEvictionLog((line) => lines.push(line), 64, 60_000);
  for (let index = 0; index < 200; index++) log.evicted(`id-${index}`, 150);
  log.flush();
  expect(lines).toEqual([
    "toolpool mcp: evicted HTTP session id-0 (idle 150 ms, least recently used) to admit a new client (limit 64 sessions); further evictions are summed up every 60 s",
    "toolpool mcp: evicted 199 more idle HTTP sessions to admit new clients (limit 64 sessions; clients that never send DELETE)",
  ]);
});

test("after the window the count is logged by itself, and the next eviction is told in full again", async () => {
  const lines: string[] = [];
  const log = createEvictionLog((line) => lines.push(line), 2, 20);
  log.evicted("a", 1);
  log.evicted("b", 1);
  const deadline = Date.now() + 5_000;
  while (lines.length < 2 && Date.now() < deadline) await Bun.sleep(5);
  log.evicted("c", 1);
  log.flush();
  expect(lines.map((line) => line.split(" (")[0])).toEqual(["toolpool mcp: evicted HTTP session a", "toolpool mcp: evicted 1 more idle HTTP session to admit new clients", "toolpool mcp: evicted HTTP session c"]);
});
