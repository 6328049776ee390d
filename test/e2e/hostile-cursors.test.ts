// test-plan: one tier — the MCP faces and their paging are in every tier; the binary is only the way in.
/**
 * Cursors a host makes up, against `toolpool mcp` (stdio, both faces: 2025-11-25 after `initialize`,
 * 2026-07-28 stateless by `_meta`) and the daemon's own socket: only a `nextCursor` the list handed
 * out reads a page; any other is -32602 with a message naming the cursor (bounded), and the real
 * cursors still reach every tool.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { binaryPath } from "../helpers/binary.ts";
import { specConfig, startSpecDaemon } from "../helpers/spec-servers.ts";

setDefaultTimeout(120_000);

const TOOLS = 700;

/** `toolpool mcp` on stdio, spoken to line by line: each request's answer found by its id. */
function stdioBridge(socketPath: string) {
  const child = Bun.spawn([binaryPath(), "mcp", "--socket", socketPath], { env: process.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const answers = new Map<number, Record<string, unknown>>();
  const waiting = new Map<number, (answer: Record<string, unknown>) => void>();
  void (async () => {
    let buffered = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      buffered += decoder.decode(chunk);
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const message = JSON.parse(buffered.slice(0, end)) as Record<string, unknown>;
        buffered = buffered.slice(end + 1);
        if (typeof message.id !== "number") continue;
        answers.set(message.id, message);
        waiting.get(message.id)?.(message);
      }
    }
  })();
  let nextId = 1;
  return {
    request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
      const id = nextId++;
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      child.stdin.flush();
      return new Promise((resolve) => (answers.has(id) ? resolve(answers.get(id)!) : waiting.set(id, resolve)));
    },
    notify(method: string) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
      child.stdin.flush();
    },
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

const STATELESS_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "cursor-host", version: "1" },
};

/** Every cursor a host could make up that the list never handed out. */
const MADE_UP = ["999999", "-1", "abc", "99999999999999999999", "1.5", "", "0", "007", " 1", "1e2", "x".repeat(10_000)];

describe("made-up cursors (compiled binary)", () => {
  test("every face refuses a cursor it did not hand out with -32602 naming it; the handed-out cursors still reach every tool", async () => {
    const { root, path } = specConfig("cursors-", { many: { tools: Array.from({ length: TOOLS }, (_, n) => ({ name: `tool_${n}` })), entry: { defer: "never" } } }, { maxToolsInArray: 1024 });
    await using daemon = await startSpecDaemon(root, path);
    await using bridge = stdioBridge(daemon.socketPath);
    const init = await bridge.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "cursor-host", version: "1" } });
    expect(init.error).toBeUndefined();
    bridge.notify("notifications/initialized");
    const faces = {
      stateful: (cursor?: string) => bridge.request("tools/list", cursor === undefined ? {} : { cursor }),
      stateless: (cursor?: string) => bridge.request("tools/list", { _meta: STATELESS_META, ...(cursor !== undefined && { cursor }) }),
    };
    for (const [face, list] of Object.entries(faces)) {
      // The real cursors, page by page: every tool once.
      const names: string[] = [];
      const cursors: string[] = [];
      for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
        const page = (await list(cursor)) as { result?: { tools: { name: string }[]; nextCursor?: string }; error?: unknown };
        expect({ face, error: page.error }).toEqual({ face, error: undefined });
        names.push(...page.result!.tools.map((tool) => tool.name));
        cursor = page.result!.nextCursor;
        if (cursor !== undefined) cursors.push(cursor);
      }
      expect({ face, paged: cursors.length > 0, many: names.filter((name) => name.startsWith("mcp__many__")).length, once: new Set(names).size === names.length }).toEqual({ face, paged: true, many: TOOLS, once: true });
      // Before: "999999" answered an empty page, "0" and "007" a page nobody offered.
      const refused: Record<string, unknown> = {};
      for (const cursor of MADE_UP) {
        const answer = (await list(cursor)) as { result?: unknown; error?: { code: number; message: string } };
        refused[cursor.slice(0, 20)] = { code: answer.error?.code, bounded: (answer.error?.message.length ?? 0) < 300, result: answer.result };
      }
      expect({ face, refused }).toEqual({ face, refused: Object.fromEntries(MADE_UP.map((cursor) => [cursor.slice(0, 20), { code: -32602, bounded: true, result: undefined }])) });
      const past = (await list("999999")) as { error: { message: string } };
      expect({ face, message: past.error.message }).toEqual({ face, message: `Invalid params: cursor "999999" is past the end of the list (${names.length} item(s) now); list again without a cursor` });
      const long = (await list("x".repeat(10_000))) as { error: { message: string } };
      expect({ face, message: long.error.message }).toEqual({
        face,
        message: `Invalid params: unknown cursor ${JSON.stringify("x".repeat(64))}… (10000 characters): pass a nextCursor this list answered, or none for the first page`,
      });
    }
    // Params of the wrong type: -32602 on both faces (the 2025 face answered -32603 and a zod dump).
    const wrong = [
      await bridge.request("tools/list", { cursor: 500 }),
      await bridge.request("tools/list", { _meta: STATELESS_META, cursor: 500 }),
      await bridge.request("tools/call", { name: 42 }),
    ] as { error?: { code: number; message: string } }[];
    expect(wrong.map((answer) => answer.error?.code)).toEqual([-32602, -32602, -32602]);
    expect(wrong.slice(0, 2).map((answer) => answer.error?.message)).toEqual(["Invalid params: cursor must be a string", "Invalid params: cursor must be a string"]);
    // A real call still goes through the 2025 face.
    const called = (await bridge.request("tools/call", { name: "mcp__many__tool_3", arguments: { text: "hi" } })) as { result?: { isError?: boolean } };
    expect(called.result?.isError).toBeFalsy();
    // The socket's own methods: tools/list and toolpool/tools refuse the same way.
    for (const method of ["tools/list", "toolpool/tools"]) {
      const answer = await daemon.request(method, { cursor: "999999" }).catch((error: Error) => error.message);
      expect(String(answer)).toContain('"code":-32602');
    }
  });
});
