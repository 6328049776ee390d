/**
 * The dispatcher runs without a socket: an in-memory peer is a connection like any other — it
 * counts, it binds a session, and its end detaches that session through `Daemon.bind`.
 */
import { expect, test } from "bun:test";
import { dispatchHarness } from "../helpers/dispatch-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";

test("an in-memory peer counts as a connection; its close detaches its session (the one path, Daemon.bind)", async () => {
  await using harness = dispatchHarness({ builtins: [echoTool] });
  const first = harness.peer();
  using watcher = harness.peer();
  const { sessionId } = await first.call("toolpool/session", { delivery: "standard" });
  expect(await first.call("toolpool/call", { name: "Echo", input: { text: "hi" } })).toMatchObject({ isError: false, content: [{ type: "text", text: "hi" }] });
  expect(await watcher.call("toolpool/status", {})).toMatchObject({ connections: 2, sessions: { active: 1, detached: 0 } });
  first.close();
  expect(await watcher.call("toolpool/status", {})).toMatchObject({ connections: 1, sessions: { active: 0, detached: 1 } });
  // The detached session is still there to resume, from another peer.
  expect(await watcher.call("toolpool/session", { sessionId })).toMatchObject({ sessionId, resumed: true });
  expect(await watcher.call("toolpool/status", {})).toMatchObject({ sessions: { active: 1, detached: 0 } });
});
