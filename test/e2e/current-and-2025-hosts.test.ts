// test-plan: one tier — the bridge and both faces are the same in every tier; the demo servers are too.
/**
 * Two generations of real, independent MCP clients on one compiled daemon at the same time: the
 * TypeScript SDK v2 client (@modelcontextprotocol/client, pinned to 2026-07-28: stateless, `_meta`
 * on every request, input_required for a server's questions) over the HTTP bridge and over stdio
 * `toolpool mcp`, and mcporter (a 2025-era host on SDK 1.x: initialize, a session, 2025-11-25)
 * through its runtime API and its CLI. Interleaved, each lists the tools, searches, calls a pooled
 * server's tool and a built-in; each gets its own answers, and the daemon's sessions show that
 * what one host discovered never became another's. The everything server's elicitation reaches
 * the v2 host that declared and answers it; the hosts that did not declare it get the tool error. A
 * server that speaks only 2026-07-28 is called by both generations, and the tool it adds reaches each
 * host as a list change (subscriptions/listen for the v2 clients, the session stream for mcporter).
 * A task-augmented call from either generation is answered inline, the task methods say why there
 * is no task, and the everything server's task-only tool is refused saying why. Needs the build.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CallToolResultSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createRuntime } from "mcporter";
import { ToolpoolClient } from "../../src/client/client.ts";
import { taskOnlyRefusal } from "../../src/mcp/pool-tool.ts";
import { binaryPath, REPO_ROOT, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { waitFor } from "../helpers/wait.ts";

setDefaultTimeout(120_000);

const ELICIT = "mcp__everything__trigger-elicitation-request";
const ECHO = "mcp__everything__echo";
const SUM = "mcp__everything__get-sum";
const GRAPH = "mcp__memory__read_graph";
const FIXTURE_2026 = join(REPO_ROOT, "test", "fixtures", "mcp", "revision-2026-server.ts");
const MCPORTER_CLI = join(REPO_ROOT, "node_modules", "mcporter", "dist", "cli.js");

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`)).join("\n");
}

/** `toolpool mcp --http 127.0.0.1:0`: resolves with the URL it prints (token in the path). */
async function startHttpBridgeProcess(socketPath: string) {
  const child = Bun.spawn([binaryPath(), "mcp", "--http", "127.0.0.1:0", "--socket", socketPath], { env: process.env, stdout: "pipe", stderr: "pipe" });
  const reader = child.stdout.getReader();
  let printed = "";
  while (!/http:\/\/127\.0\.0\.1:\d+\/mcp\/\S+/.test(printed)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the HTTP bridge exited: ${printed}${await new Response(child.stderr).text()}`);
    printed += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    url: (/http:\/\/127\.0\.0\.1:\d+\/mcp\/\S+/.exec(printed) as RegExpExecArray)[0],
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

/** mcporter's own CLI, one process per command (each a new 2025 session), run by this runtime. */
async function mcporterCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn([process.execPath, MCPORTER_CLI, ...args], { env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

test("compiled: an SDK v2 client at 2026-07-28 (HTTP and stdio) and mcporter at 2025-11-25 use one daemon at once, each with its own session", async () => {
  const socketPath = join(tempSocketDir(), "hosts.sock");
  // Beside the demo's reference servers (2025), a fixture server that speaks only 2026-07-28.
  const configPath = join(tempSocketDir(), "config.json");
  writeFileSync(configPath, JSON.stringify({ mcpServers: { moon: { command: process.execPath, args: [FIXTURE_2026], timeoutMs: 10_000 } } }));
  await using daemon = await startBinaryDaemon(socketPath, ["--demo", "--config", configPath], {}, undefined, REPO_ROOT);
  const admin = await ToolpoolClient.connect(socketPath);
  try {
    await waitFor(async () => {
      const servers = (await admin.servers()).servers;
      return ["everything", "memory", "moon"].every((name) => servers.some((server) => server.name === name && server.state === "connected"));
    }, "the everything, memory and moon servers to connect", 60_000);
    await using http = await startHttpBridgeProcess(socketPath);

    const asked: string[] = [];
    const v2Http = new Client({ name: "v2-http-host", version: "1" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    v2Http.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { name: "Ada Lovelace", check: true } };
    });
    const v2Stdio = new Client({ name: "v2-stdio-host", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    const runtime = await createRuntime({ servers: [{ name: "toolpool", command: { kind: "http", url: new URL(http.url) } }], clientInfo: { name: "mcporter-host", version: "1" } });
    try {
      await Promise.all([
        v2Http.connect(new StreamableHTTPClientTransport(new URL(http.url))),
        v2Stdio.connect(new StdioClientTransport({ command: binaryPath(), args: ["mcp", "--socket", socketPath], env: { ...process.env } as Record<string, string>, stderr: "pipe" })),
      ]);
      const mcporter = await runtime.connect("toolpool");
      expect({
        v2Http: v2Http.getNegotiatedProtocolVersion(),
        v2Stdio: v2Stdio.getNegotiatedProtocolVersion(),
        mcporter: (mcporter.transport as { protocolVersion?: string }).protocolVersion,
        mcporterServer: mcporter.client.getServerVersion()?.name,
      }).toEqual({ v2Http: "2026-07-28", v2Stdio: "2026-07-28", mcporter: "2025-11-25", mcporterServer: "toolpool" });

      // The v2 client left to negotiate (probe with server/discover, else initialize) picks 2026-07-28
      // on HTTP and on stdio; with its default (legacy) it initializes at 2025-11-25, like mcporter.
      const stdioTransport = () => new StdioClientTransport({ command: binaryPath(), args: ["mcp", "--socket", socketPath], env: { ...process.env } as Record<string, string>, stderr: "pipe" });
      const negotiated: Record<string, string | undefined> = {};
      for (const [label, transport, auto] of [
        ["auto over HTTP", new StreamableHTTPClientTransport(new URL(http.url)), true],
        ["auto over stdio", stdioTransport(), true],
        ["legacy over HTTP", new StreamableHTTPClientTransport(new URL(http.url)), false],
        ["legacy over stdio", stdioTransport(), false],
      ] as const) {
        const client = new Client({ name: "v2-negotiating-host", version: "1" }, auto ? { versionNegotiation: { mode: "auto" } } : {});
        await client.connect(transport);
        negotiated[label] = (await client.listTools()).tools.some((tool) => tool.name === "ToolSearch") ? client.getNegotiatedProtocolVersion() : "no ToolSearch";
        await client.close();
      }
      expect(negotiated).toEqual({ "auto over HTTP": "2026-07-28", "auto over stdio": "2026-07-28", "legacy over HTTP": "2025-11-25", "legacy over stdio": "2025-11-25" });

      // 1. Every host lists the same fixed view (core built-ins + ToolSearch + ExecuteExtraTool).
      const [httpTools, stdioTools, mcporterTools] = await Promise.all([v2Http.listTools(), v2Stdio.listTools(), runtime.listTools("toolpool")]);
      const names = { v2Http: httpTools.tools.map((tool) => tool.name), v2Stdio: stdioTools.tools.map((tool) => tool.name), mcporter: mcporterTools.map((tool) => tool.name) };
      expect(names.v2Http).toContain("ToolSearch");
      expect(names.v2Http).toContain("ExecuteExtraTool");
      expect(names.v2Http).toContain("Read");
      expect(names.v2Http).not.toContain(ECHO);
      expect(names).toEqual({ v2Http: names.v2Http, v2Stdio: names.v2Http, mcporter: names.v2Http });

      // 2. Each searches for a different pooled tool, at the same time.
      const [foundEcho, foundGraph, foundSum] = await Promise.all([
        v2Http.callTool({ name: "ToolSearch", arguments: { query: `select:${ECHO}` } }),
        v2Stdio.callTool({ name: "ToolSearch", arguments: { query: `select:${GRAPH}` } }),
        runtime.callTool("toolpool", "ToolSearch", { args: { query: `select:${SUM}` } }),
      ]);
      expect({ v2Http: textOf(foundEcho).includes(`### ${ECHO}`), v2Stdio: textOf(foundGraph).includes(`### ${GRAPH}`), mcporter: textOf(foundSum).includes(`### ${SUM}`) }).toEqual({
        v2Http: true,
        v2Stdio: true,
        mcporter: true,
      });

      // 3. Each calls what it found, and a built-in, interleaved.
      const run = (tool: string, params: Record<string, unknown>) => ({ name: "ExecuteExtraTool", arguments: { tool_name: tool, params } });
      const [echoed, graph, sum, globbed, listed, read] = await Promise.all([
        v2Http.callTool(run(ECHO, { message: "from the 2026 host" })),
        v2Stdio.callTool(run(GRAPH, {})),
        runtime.callTool("toolpool", "ExecuteExtraTool", { args: { tool_name: SUM, params: { a: 2, b: 3 } } }),
        v2Http.callTool({ name: "Glob", arguments: { pattern: "features/tiers.ts" } }),
        v2Stdio.callTool({ name: "Glob", arguments: { pattern: "bench/socket.ts" } }),
        runtime.callTool("toolpool", "Read", { args: { file_path: join(REPO_ROOT, "package.json"), limit: 3 } }),
      ]);
      expect(textOf(echoed)).toBe("Echo: from the 2026 host");
      expect(JSON.parse(textOf(graph))).toEqual({ entities: [], relations: [] });
      expect(textOf(sum)).toBe("The sum of 2 and 3 is 5.");
      expect(textOf(globbed)).toBe(join(REPO_ROOT, "features", "tiers.ts"));
      expect(textOf(listed)).toBe(join(REPO_ROOT, "bench", "socket.ts"));
      expect(textOf(read)).toContain('"name": "toolpool"');
      for (const result of [echoed, graph, sum, globbed, listed, read]) expect((result as { isError?: boolean }).isError).toBe(false);

      // 4. mcporter's CLI (a new 2025 session per command) while the others hold theirs.
      const [cliSum, cliList] = await Promise.all([
        mcporterCli(["call", "--http-url", http.url, "--allow-http", "--name", "tp", "ExecuteExtraTool", "--args", JSON.stringify({ tool_name: SUM, params: { a: 40, b: 2 } }), "--output", "json"]),
        mcporterCli(["list", "--http-url", http.url, "--allow-http", "--name", "tp", "--json"]),
      ]);
      expect({ code: cliSum.code, text: textOf(JSON.parse(cliSum.stdout)) }).toEqual({ code: 0, text: "The sum of 40 and 2 is 42." });
      expect({ code: cliList.code, tools: (JSON.parse(cliList.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name) }).toEqual({ code: 0, tools: names.v2Http });

      // 5. The elicitation tool from each host in turn (a question over the server's stdio names no call,
      //    so toolpool refuses to guess while two calls of that server are in flight), each while the
      //    other hosts call other servers and built-ins: only the host that declared elicitation is asked.
      const others = (host: "v2Http" | "v2Stdio" | "mcporter") =>
        Promise.all([
          host === "v2Http" ? undefined : v2Http.callTool({ name: "Glob", arguments: { pattern: "features/tiers.ts" } }),
          host === "v2Stdio" ? undefined : v2Stdio.callTool(run(GRAPH, {})),
          host === "mcporter" ? undefined : runtime.callTool("toolpool", "Read", { args: { file_path: join(REPO_ROOT, "package.json"), limit: 1 } }),
        ]).then((results) => results.filter((result) => result !== undefined).every((result) => (result as { isError?: boolean }).isError === false));
      const [answered, quietWhileAnswered] = await Promise.all([v2Http.callTool(run(ELICIT, {})), others("v2Http")]);
      const [refusedStdio, quietWhileStdio] = await Promise.all([v2Stdio.callTool(run(ELICIT, {})), others("v2Stdio")]);
      const [refusedMcporter, quietWhileMcporter] = await Promise.all([runtime.callTool("toolpool", "ExecuteExtraTool", { args: { tool_name: ELICIT, params: {} } }), others("mcporter")]);
      expect({ quietWhileAnswered, quietWhileStdio, quietWhileMcporter }).toEqual({ quietWhileAnswered: true, quietWhileStdio: true, quietWhileMcporter: true });
      expect((answered as { isError?: boolean }).isError).toBe(false);
      expect(textOf(answered)).toContain("- Name: Ada Lovelace");
      expect(asked).toEqual(["Please provide inputs for the following fields:"]);
      const refusal =
        'toolpool: the server asked elicitation/create ("Please provide inputs for the following fields:"), but the client that made this call did not declare the elicitation capability, so nobody could answer it.';
      for (const refused of [refusedStdio, refusedMcporter]) {
        expect((refused as { isError?: boolean }).isError).toBe(true);
        expect(textOf(refused)).toStartWith(refusal);
      }

      // 6. Tasks: a task-augmented call from either generation is answered inline; the task methods say why there is none.
      const sdk1 = (await runtime.connect("toolpool")).client;
      const [v2Task, mcporterTask] = await Promise.all([
        v2Http.callTool({ name: "Glob", arguments: { pattern: "features/tiers.ts" }, task: { ttl: 60_000 } }),
        sdk1.request({ method: "tools/call", params: { name: "Glob", arguments: { pattern: "features/tiers.ts" }, task: { ttl: 60_000 } } }, CallToolResultSchema),
      ]);
      expect(textOf(v2Task)).toBe(join(REPO_ROOT, "features", "tiers.ts"));
      expect(textOf(mcporterTask)).toBe(join(REPO_ROOT, "features", "tiers.ts"));
      const taskGet = await sdk1.request({ method: "tasks/get", params: { taskId: "made-up" } }, CallToolResultSchema).then(
        () => "answered",
        (error: Error) => error.message,
      );
      expect(taskGet).toContain("tasks/get — toolpool creates no tasks");

      // A tool of the everything server that runs only as a task (2025-11-25 taskSupport "required"):
      // refused by the daemon, saying why, for either generation of host.
      const RESEARCH = "mcp__everything__simulate-research-query";
      const [researchV2, researchMcporter] = await Promise.all([
        v2Http.callTool(run(RESEARCH, { topic: "tides" })),
        runtime.callTool("toolpool", "ExecuteExtraTool", { args: { tool_name: RESEARCH, params: { topic: "tides" } } }),
      ]);
      for (const refused of [researchV2, researchMcporter]) {
        expect({ isError: (refused as { isError?: boolean }).isError, text: textOf(refused) }).toEqual({ isError: true, text: taskOnlyRefusal(RESEARCH) });
      }

      // 8. The 2026-only server, from both generations: a call that its server answers with a task
      //    (the tasks extension) ends in a tool error saying toolpool does not poll tasks; a tool it adds
      //    reaches every host as a list change the way its revision says (the v2 clients on their
      //    subscriptions/listen streams, mcporter's session unsolicited), and then runs for each.
      const LONG_JOB = "mcp__moon__long_job";
      const [jobV2, jobMcporter] = await Promise.all([
        v2Stdio.callTool(run(LONG_JOB, {})),
        runtime.callTool("toolpool", "ExecuteExtraTool", { args: { tool_name: LONG_JOB, params: {} } }),
      ]);
      for (const refused of [jobV2, jobMcporter]) {
        expect({ isError: (refused as { isError?: boolean }).isError, text: textOf(refused) }).toEqual({
          isError: true,
          text: 'The server answered long_job with resultType "task", which toolpool does not follow (a task of the tasks extension is not polled); the call was not completed.',
        });
      }
      const heard = { v2Http: 0, v2Stdio: 0, mcporter: 0 };
      v2Http.setNotificationHandler("notifications/tools/list_changed", () => void heard.v2Http++);
      v2Stdio.setNotificationHandler("notifications/tools/list_changed", () => void heard.v2Stdio++);
      sdk1.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.mcporter++);
      const [httpListen, stdioListen] = await Promise.all([v2Http.listen({ toolsListChanged: true }), v2Stdio.listen({ toolsListChanged: true })]);
      expect({ http: httpListen.honoredFilter, stdio: stdioListen.honoredFilter }).toEqual({ http: { toolsListChanged: true }, stdio: { toolsListChanged: true } });
      const added = await runtime.callTool("toolpool", "ExecuteExtraTool", { args: { tool_name: "mcp__moon__add_tool", params: { name: "tide_table" } } });
      expect(textOf(added)).toBe("added");
      await waitFor(() => heard.v2Http > 0 && heard.v2Stdio > 0 && heard.mcporter > 0, "every host to hear that the tools changed", 30_000);
      const [tideV2, tideMcporter] = await Promise.all([
        v2Http.callTool(run("mcp__moon__tide_table", {})),
        runtime.callTool("toolpool", "ExecuteExtraTool", { args: { tool_name: "mcp__moon__tide_table", params: {} } }),
      ]);
      expect({ v2: textOf(tideV2), mcporter: textOf(tideMcporter) }).toEqual({ v2: "ran tide_table", mcporter: "ran tide_table" });
      await Promise.all([httpListen.close(), stdioListen.close()]);

      // 7. No host's discoveries became another's: each host that called anything has its own session
      //    (a host's short-lived probe or listing process may open one more, with no calls).
      const sessions = (await admin.request("toolpool/sessions", {})).sessions.filter((session) => session.calls > 0);
      expect(sessions.map((session) => session.clientName).sort()).toEqual(["mcporter", "mcporter-host", "v2-http-host", "v2-stdio-host"]);
      const idOf = (clientName: string) => sessions.find((session) => session.clientName === clientName)!.id;
      const discovered = async (sessionId: string) => {
        const verdicts: Record<string, string | undefined> = {};
        for (const tool of [ECHO, GRAPH, SUM]) {
          const explained = await admin.request("toolpool/explain", { name: tool, sessionId });
          verdicts[tool] = explained.decisions.find((decision) => decision.step === "discovered")?.verdict;
        }
        return verdicts;
      };
      expect({
        v2Http: await discovered(idOf("v2-http-host")),
        v2Stdio: await discovered(idOf("v2-stdio-host")),
        mcporter: await discovered(idOf("mcporter-host")),
      }).toEqual({
        v2Http: { [ECHO]: "pass", [GRAPH]: "blocked", [SUM]: "blocked" },
        v2Stdio: { [ECHO]: "blocked", [GRAPH]: "pass", [SUM]: "blocked" },
        mcporter: { [ECHO]: "blocked", [GRAPH]: "blocked", [SUM]: "pass" },
      });
    } finally {
      await runtime.close().catch(() => {});
      await v2Http.close().catch(() => {});
      await v2Stdio.close().catch(() => {});
    }
    await admin.shutdown();
    // Its own exit removes the demo's scratch directory: no kill before that.
    await daemon.child.exited;
  } finally {
    admin.close();
  }
});
