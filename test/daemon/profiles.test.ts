/**
 * Tool profiles over the real socket: a session that picks one has exactly the profile's tools in
 * tools/list, toolpool/assemble, ToolSearch (keyword and select) and calls; a call outside it is
 * refused with the reason; an unknown profile is a clear error; `toolpool/tools {profile}` shows it.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { DaemonError, ToolpoolClient } from "../../src/client/client.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { FIXTURE_SERVER, waitFor } from "../mcp/helpers.ts";

setDefaultTimeout(30_000);

const config = {
  mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER], timeoutMs: 10_000 } },
  toolGroups: { "group:fixture": ["mcp__fx"] },
  profiles: {
    coding: { include: ["group:fs", "Bash", "group:fixture"], exclude: ["Write", "NotebookEdit", "mcp__fx__*_tool", "mcp__fx__crash"] },
    minimal: { include: ["Read"] },
  },
};
const CODING = ["Bash", "Edit", "Glob", "Grep", "Read"];
const CODING_MCP = ["mcp__fx__big", "mcp__fx__echo", "mcp__fx__hang", "mcp__fx__pid", "mcp__fx__slow", "mcp__fx__wait_for_cancel"];

async function started() {
  const harness = await startTestDaemon({ config });
  const client = await ToolpoolClient.connect(harness.socketPath);
  await waitFor(async () => (await client.tools()).tools.some((tool) => tool.name === "mcp__fx__echo"), "the fixture's tools");
  return Object.assign(harness, { client });
}

const namesOf = (tools: unknown[]) => tools.map((tool) => (tool as { name: string }).name);
const textOf = (content: unknown[]) => content.map((block) => (block as { text?: string }).text ?? "").join("");

describe("tool profiles", () => {
  test("a session with a profile sees exactly its tools: assemble, tools/list, ToolSearch, calls", async () => {
    await using harness = await started();
    const { client } = harness;
    const all = namesOf((await client.tools()).tools);
    // Every tool the profile leaves out exists in the pool: the filter, not the pool, removes them.
    for (const name of ["Write", "NotebookEdit", "WebFetch", "TodoWrite", "mcp__fx__crash", "mcp__fx__add_tool"]) expect(all).toContain(name);

    // standard delivery: every tool of the session is in the array, in pool order.
    const standard = await client.session({ profile: "coding", delivery: "standard" });
    expect(standard.settings.profile?.name).toBe("coding");
    const assembled = await client.assemble({ sessionId: standard.sessionId, messages: [] });
    expect(namesOf(assembled.tools)).toEqual([...CODING, ...CODING_MCP]);
    const mcpList = await client.request("tools/list", {});
    expect(namesOf(mcpList.tools)).toEqual([...CODING, ...CODING_MCP]);

    // proxy delivery: ToolSearch finds only the profile's tools; selecting an outside one finds nothing.
    const proxy = await client.session({ profile: "coding", delivery: "proxy" });
    // Not announced either: nothing of the proxy view's array or announcement names an outside tool.
    const proxyView = JSON.stringify(await client.assemble({ sessionId: proxy.sessionId, messages: [] }));
    expect(proxyView).toContain("mcp__fx__echo");
    for (const outside of ["mcp__fx__crash", "mcp__fx__add_tool", "WebFetch", "NotebookEdit", "TodoWrite"]) expect(proxyView).not.toContain(outside);
    const search = (query: string) => client.call({ sessionId: proxy.sessionId, name: "ToolSearch", input: { query } });
    const selected = await search("select:mcp__fx__echo,mcp__fx__crash,WebFetch");
    expect(textOf(selected.content)).toContain("mcp__fx__echo");
    expect(textOf(selected.content)).toContain("Not found: mcp__fx__crash, WebFetch");
    const keyword = await search("exits the process at once");
    expect(textOf(keyword.content)).not.toContain("mcp__fx__crash");
    const fetchSearch = await search("fetch a web page url");
    expect(textOf(fetchSearch.content)).not.toContain("WebFetch");
    const searched = (await client.search({ sessionId: proxy.sessionId, query: "select:mcp__fx__crash,mcp__fx__echo" })) as { matches: { name: string }[]; found?: string[]; missing?: string[] };
    expect(searched.matches.map((match) => match.name)).toEqual(["mcp__fx__echo"]);
    // `found` says only what the session has; the outside tool is missing, as ToolSearch says.
    expect(searched.found).toEqual(["mcp__fx__echo"]);
    expect(searched.missing).toEqual(["mcp__fx__crash"]);

    // Calls: inside runs; outside is refused with the reason, through every door.
    expect((await client.call({ sessionId: proxy.sessionId, name: "mcp__fx__echo", input: { text: "in" } })).content).toEqual([{ type: "text", text: "in" }]);
    const refused = await client.call({ sessionId: proxy.sessionId, name: "Write", input: { file_path: "/tmp/x", content: "x" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused.content)).toBe('Write is not available in this session: it is outside the session\'s tool profile "coding".');
    const viaExecute = await client.call({ sessionId: proxy.sessionId, name: "ExecuteExtraTool", input: { tool_name: "mcp__fx__crash", params: {} } });
    expect(viaExecute.isError).toBe(true);
    const viaMcp = await client.request("tools/call", { name: "mcp__fx__crash", arguments: {} }).catch((error: unknown) => error);
    expect(viaMcp).toBeInstanceOf(DaemonError);
    expect((viaMcp as Error).message).toContain('outside the session\'s tool profile "coding"');

    // Re-opened with another profile, the same session's array follows it.
    await client.session({ sessionId: standard.sessionId, profile: "minimal" });
    expect(namesOf((await client.assemble({ sessionId: standard.sessionId, messages: [] })).tools)).toEqual(["Read"]);

    // A session without a profile still has the whole pool.
    const plain = await client.session({ delivery: "standard" });
    expect(namesOf((await client.assemble({ sessionId: plain.sessionId, messages: [] })).tools)).toEqual(all);
  });

  test("toolpool/tools {profile} shows a profile; an unknown profile is a clear error everywhere", async () => {
    await using harness = await started();
    const { client } = harness;
    expect(namesOf((await client.tools({ profile: "minimal" })).tools)).toEqual(["Read"]);
    expect(namesOf((await client.tools({ profile: "coding" })).tools)).toEqual([...CODING, ...CODING_MCP]);
    const unknown = await client.tools({ profile: "nope" }).catch((error: unknown) => error);
    expect((unknown as Error).message).toBe('Invalid params: field "profile": unknown profile "nope"; configured profiles: coding, minimal');
    const session = await client.session({ profile: "nope" }).catch((error: unknown) => error);
    expect((session as DaemonError).code).toBe(-32602);
    expect((session as Error).message).toContain('unknown profile "nope"');
  });
});
