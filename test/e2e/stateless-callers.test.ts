// test-plan: one tier — the HTTP bridge's stateless callers are the same in every tier.
/**
 * Stateless (2026-07-28) callers of the compiled binary's HTTP bridge (`mcp --http`, its daemon
 * `serve`): caller A's Bash call that waits for a file holds neither caller B's Bash call nor A's
 * own next one — each answers while A's first is still running — and a flood of listen streams by
 * one caller is refused past its share while another caller still gets one.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { binaryPath, startBinaryDaemon } from "../helpers/binary.ts";

setDefaultTimeout(120_000);

const REVISION = "2026-07-28";

async function startBridge(socketPath: string) {
  const child = Bun.spawn([binaryPath(), "mcp", "--http", "127.0.0.1:0", "--socket", socketPath], { env: process.env, stdout: "pipe", stderr: "pipe" });
  const reader = child.stdout.getReader();
  let printed = "";
  while (!/http:\/\/127\.0\.0\.1:\d+\/mcp\/\S+/.test(printed)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`bridge exited: ${printed}`);
    printed += new TextDecoder().decode(value);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return {
    url: /(http:\/\/127\.0\.0\.1:\d+\/mcp\/\S+)/.exec(printed)![1]!,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

let nextId = 1;
function post(url: string, client: string, method: string, params: Record<string, unknown>, signal?: AbortSignal) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": REVISION,
      "mcp-method": method,
      ...(typeof params.name === "string" && { "mcp-name": params.name }),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: nextId++,
      method,
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": REVISION, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: client, version: "1" } }, ...params },
    }),
    ...(signal && { signal }),
  });
}

async function bash(url: string, client: string, command: string, signal?: AbortSignal): Promise<string> {
  const body = (await (await post(url, client, "tools/call", { name: "Bash", arguments: { command } }, signal)).json()) as { result?: { content: { text?: string }[] }; error?: { message: string } };
  return body.result?.content.map((block) => block.text ?? "").join("") ?? `error: ${body.error?.message}`;
}

describe("stateless callers of the compiled HTTP bridge", () => {
  test("caller A's waiting Bash call holds neither caller B's nor A's own next call", async () => {
    const workspace = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "callers-")));
    const socketPath = join(tempSocketDir(), "callers.sock");
    await using _daemon = await startBinaryDaemon(socketPath, [], {}, undefined, workspace);
    await using bridge = await startBridge(socketPath);
    let releasedFirst = false;
    // Runs until the test creates the file: however long the others take, A's first call is still running.
    const slow = bash(bridge.url, "caller-a", "while [ ! -e release ]; do sleep 0.02; done; echo released").then((text) => {
      releasedFirst = true;
      return text;
    });
    const firstLine = (text: string) => text.split("\n")[0];
    try {
      // Queued behind A's first call (the old shared session), these would never answer: give up, and fail, after 30 s.
      const limit = AbortSignal.timeout(30_000);
      const [other, same] = await Promise.all([bash(bridge.url, "caller-b", "echo from-b", limit), bash(bridge.url, "caller-a", "echo from-a", limit)]);
      expect({ other: firstLine(other), same: firstLine(same), releasedFirst }).toEqual({ other: "from-b", same: "from-a", releasedFirst: false });
    } finally {
      // Whatever happened, the waiting Bash call ends (no loop outlives the test).
      writeFileSync(join(workspace, "release"), "");
    }
    expect(firstLine(await slow)).toBe("released");
  });

  test("one caller's flood of listen streams stops at its share (429); another caller still gets one", async () => {
    const socketPath = join(tempSocketDir(), "listen.sock");
    await using _daemon = await startBinaryDaemon(socketPath);
    await using bridge = await startBridge(socketPath);
    const stop = new AbortController();
    const open = (client: string) => post(bridge.url, client, "subscriptions/listen", { notifications: { toolsListChanged: true } }, stop.signal);
    try {
      // The responses are held: a dropped Response is collected, its connection closed, and the
      // bridge rightly counts that stream as gone (which once let a 5th and 6th stream in here).
      const held: Response[] = [];
      for (let index = 0; index < 6; index++) held.push(await open("greedy"));
      expect(held.map((response) => response.status)).toEqual([200, 200, 200, 200, 429, 429]);
      const refused = (await (await open("greedy")).json()) as { error: { code: number; message: string } };
      expect(refused.error.code).toBe(-32000);
      expect(refused.error.message).toContain("the limit per caller is 4");
      held.push(await open("polite"));
      expect(held.at(-1)!.status).toBe(200);
    } finally {
      stop.abort();
    }
  });
});
