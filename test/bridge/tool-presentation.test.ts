/**
 * A pooled server's own presentation of a tool reaches MCP hosts unchanged: the reference everything
 * server's `get-structured-content` keeps its title, its outputSchema and its input schema's dialect
 * through the bridge, and the host's SDK checks the call's structuredContent against that schema.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { linkHost, waitUntil } from "./fixtures.ts";

setDefaultTimeout(60_000);

const REPO = join(import.meta.dir, "..", "..");
const TOOL = "mcp__everything__get-structured-content";

describe("tool presentation through the bridge", () => {
  test("title, outputSchema and $schema pass through; structuredContent satisfies the host's check", async () => {
    const everything = {
      command: join(REPO, "node_modules", ".bin", "bun"),
      args: [join(REPO, "node_modules", ".bin", "mcp-server-everything"), "stdio"],
      timeoutMs: 30_000,
      defer: "never" as const,
    };
    await using daemon = await startTestDaemon({ builtins: [echoTool], config: { mcpServers: { everything } } });
    await waitUntil(() => daemon.daemon.core.mcp()?.server("everything")?.state === "connected", "the everything server to connect", 30_000);
    const raw = daemon.daemon.core.mcp()!.definitions("everything")!.find((tool) => tool.name === "get-structured-content")!;
    await using host = await linkHost(daemon.socketPath);
    const { tools } = await host.client.listTools();
    const listed = tools.find((tool) => tool.name === TOOL);
    expect(listed).toBeDefined();
    expect(listed!.title).toBe(raw.title!);
    expect(listed!.outputSchema).toEqual(raw.outputSchema!);
    if (typeof raw.inputSchema.$schema === "string") expect(listed!.inputSchema.$schema).toBe(raw.inputSchema.$schema);
    // The SDK client refuses a result whose structuredContent does not fit the listed outputSchema.
    const result = await host.client.callTool({ name: TOOL, arguments: { location: "New York" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
  });
});
