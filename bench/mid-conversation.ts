#!/usr/bin/env bun
/**
 * Prompt-cache prefix stability of `mid-conversation` delivery. Prints JSON (one line per delivery).
 *
 * A scripted 50-turn Anthropic session against an in-process daemon, over its real socket, with two
 * real MCP fixture servers (test/fixtures/mcp/fixture-server.ts): the scripted model discovers tools
 * with ToolSearch (turns 4, 12, 20, 36), calls what it found through the daemon, and server `fy`
 * is stopped at turn 28 (a config reload without it). Each turn the harness does what a client
 * does: `toolpool/assemble` with the transcript, inserts `toolChanges.message` at its `index` and
 * keeps it, builds the request `{system, tools, messages}`.
 *
 * The cacheable prefix of a request is everything before its newest messages: system + tools + the
 * previous request's messages. A turn is prefix-stable when the previous request's
 * system, tools and messages are byte-identical at the start of this one (so the cache written by
 * the previous request is read whole). The same script runs in `native` delivery for comparison,
 * where a discovery or a departure changes tools[], and with `inlineTools` (additions by value).
 * Usage: bun bench/mid-conversation.ts [--turns 50]
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ToolpoolClient } from "../src/client/client.ts";
import { parseConfig } from "../src/config/load.ts";
import { Daemon } from "../src/daemon/daemon.ts";
import { silentLogger } from "../src/runtime/logger.ts";
import { builtinTools } from "../src/builtin/list.ts";

const { values } = parseArgs({ options: { turns: { type: "string", default: "50" } } });
const TURNS = Number(values.turns);
const fixture = join(import.meta.dir, "..", "test", "fixtures", "mcp", "fixture-server.ts");
const SYSTEM = "You are a careful assistant. Use the tools you have; search for others with ToolSearch.";
const DISCOVER: Record<number, string> = { 4: "mcp__fx__echo", 12: "mcp__fy__echo", 20: "mcp__fx__pid", 36: "mcp__fx__slow" };
const STOP_FY_AT = 28;

type Message = Record<string, unknown>;

async function waitFor(check: () => Promise<boolean>, what: string, limitMs = 20_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

async function run(delivery: "mid-conversation" | "native", inlineTools = false) {
  const dir = (await import("node:fs")).mkdtempSync("/tmp/tpbench-mid-");
  const configPath = join(dir, "config.json");
  const server = { command: process.execPath, args: [fixture], timeoutMs: 10_000 };
  const config = (servers: Record<string, unknown>) => ({ mcpServers: servers });
  writeFileSync(configPath, JSON.stringify(config({ fx: server, fy: server })));
  const socketPath = join(dir, "b.sock");
  const daemon = new Daemon({ socketPath, config: parseConfig(config({ fx: server, fy: server }), configPath), configSource: { path: configPath, explicit: true }, builtins: builtinTools(), logger: silentLogger, usageDatabasePath: join(dir, "usage.sqlite") });
  await daemon.start();
  const client = await ToolpoolClient.connect(socketPath);
  try {
    const toolNames = async () => (await client.tools()).tools.map((tool) => tool.name);
    await waitFor(async () => (await toolNames()).includes("mcp__fx__echo") && (await toolNames()).includes("mcp__fy__echo"), "both fixture servers");
    const { sessionId } = await client.session({ model: "claude-sonnet-4-5", delivery, workspaceRoots: [dir], ...(inlineTools && { inlineTools }) });
    const messages: Message[] = [{ role: "user", content: "Turn 0: start." }];
    let previous: { system: string; tools: string; messages: string[]; announced: boolean } | undefined;
    let stable = 0;
    let toolChangeMessages = 0;
    let calls = 0;
    let callErrors = 0;
    const prefixBytes: number[] = [];
    const toolsBytes = new Set<number>();
    let pendingCall: string | undefined;
    for (let turn = 0; turn < TURNS; turn++) {
      if (turn === STOP_FY_AT) {
        writeFileSync(configPath, JSON.stringify(config({ fx: server })));
        await daemon.reload();
        await waitFor(async () => !(await toolNames()).some((name) => name.startsWith("mcp__fy__")), "fy to leave");
      }
      const assembled = await client.assemble({ sessionId, messages, system: SYSTEM });
      if (assembled.toolChanges) {
        messages.splice(assembled.toolChanges.index, 0, assembled.toolChanges.message as Message);
        toolChangeMessages++;
      }
      // A list announcement is sent with this request only, after the kept transcript.
      const sent = assembled.announcement && !assembled.announcement.persist ? [...messages, { role: "user", content: assembled.announcement.text }] : messages;
      const announced = sent !== messages;
      const request = { system: JSON.stringify(SYSTEM), tools: JSON.stringify(assembled.tools), messages: sent.map((message) => JSON.stringify(message)), announced };
      if (previous) {
        const prev = previous;
        // The previous request's own announcement is not kept in the transcript, so not in the prefix.
        const kept = prev.messages.length - (prev.announced ? 1 : 0);
        const same = prev.system === request.system && prev.tools === request.tools && prev.messages.slice(0, kept).every((bytes, index) => request.messages[index] === bytes);
        if (same) stable++;
        prefixBytes.push(prev.system.length + prev.tools.length + prev.messages.slice(0, kept).reduce((sum, bytes) => sum + bytes.length, 0));
      }
      toolsBytes.add(request.tools.length);
      previous = request;

      // The scripted model's turn.
      const id = `toolu_${turn}`;
      const discover = DISCOVER[turn];
      if (discover) {
        const input = { query: `select:${discover}` };
        const result = await client.call({ sessionId, name: "ToolSearch", input, toolUseId: id });
        messages.push({ role: "assistant", content: [{ type: "tool_use", id, name: "ToolSearch", input }] }, { role: "user", content: [result.toolResult] });
        pendingCall = discover;
      } else if (pendingCall) {
        const name = pendingCall;
        const input = name.endsWith("echo") ? { text: `turn ${turn}` } : name.endsWith("slow") ? { ms: 1 } : {};
        const result = await client.call({ sessionId, name, input, toolUseId: id });
        calls++;
        if (result.isError) callErrors++;
        messages.push({ role: "assistant", content: [{ type: "tool_use", id, name, input }] }, { role: "user", content: [result.toolResult] });
        pendingCall = undefined;
      } else {
        messages.push({ role: "assistant", content: [{ type: "text", text: `Answer ${turn}.` }] }, { role: "user", content: `Turn ${turn + 1}: go on.` });
      }
    }
    return {
      bench: "mid-conversation",
      delivery,
      inlineTools,
      turns: TURNS,
      comparedTurns: TURNS - 1,
      prefixStable: stable,
      toolChangeMessages,
      toolCalls: calls,
      toolCallErrors: callErrors,
      distinctToolsArrayBytes: [...toolsBytes].sort((a, b) => a - b),
      prefixBytes: { first: prefixBytes[0] ?? 0, last: prefixBytes.at(-1) ?? 0 },
      discoveries: Object.keys(DISCOVER).length,
      serverStoppedAtTurn: STOP_FY_AT,
    };
  } finally {
    client.close();
    await daemon.stop("bench finished");
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(JSON.stringify(await run("mid-conversation")));
console.log(JSON.stringify(await run("mid-conversation", true)));
console.log(JSON.stringify(await run("native")));
