/**
 * Run as a child process by cron-delivery.test.ts: opens the cron service on a state dir, delivers
 * a session's queued firings to a "client" (stdout), and is killed with SIGKILL right after the first
 * send — before the delivery can be acknowledged. Arguments: stateDir sessionId nowIso.
 */
import { writeSync } from "node:fs";
import { CronDelivery } from "../../src/cron/cron-delivery.ts";
import { openCronService } from "../../src/cron/cron-service.ts";
import { ManualClock } from "./manual-clock.ts";

const [stateDir, sessionId, now] = process.argv.slice(2);
if (!stateDir || !sessionId || !now) throw new Error("usage: deliver-then-crash.ts stateDir sessionId nowIso");
const { scheduler } = openCronService({ stateDir, clock: new ManualClock(now), timezone: "UTC" });
scheduler.start();
const delivery = new CronDelivery({
  scheduler,
  sinks: () => [
    {
      send(notification) {
        // Synchronous, so the line is in the pipe before the process dies.
        writeSync(1, `${JSON.stringify(notification)}\n`);
        process.kill(process.pid, "SIGKILL");
        return true;
      },
    },
  ],
});
delivery.deliver(sessionId);
