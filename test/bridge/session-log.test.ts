/** A bridge connection is one "session opened" line in the daemon's log, not two. */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DaemonBridge } from "../../src/bridge/daemon-bridge.ts";
import { builtinTools } from "../../src/builtin/list.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { createLogger } from "../../src/runtime/logger.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";

test("a bridge that names its host after initialize logs 'session opened' once", async () => {
  const dir = tempSocketDir();
  const lines: string[] = [];
  const daemon = new Daemon({
    socketPath: join(dir, "d.sock"),
    config: parseConfig({}, "test"),
    configSource: { path: null, explicit: false },
    builtins: builtinTools(),
    logger: createLogger("info", (line) => lines.push(line), { format: "json" }),
    usageDatabasePath: join(dir, "usage.sqlite"),
  });
  await daemon.start();
  try {
    const bridge = new DaemonBridge({ connect: () => ToolpoolClient.connect(join(dir, "d.sock")) });
    await bridge.instructions();
    bridge.setClientName("inspector");
    await bridge.listTools();
    bridge.close();
    expect(lines.filter((line) => line.includes('"session opened"')).length).toBe(1);
  } finally {
    await daemon.stop("test finished");
    rmSync(dir, { recursive: true, force: true });
  }
});
