/** RemoteTrigger against a loopback endpoint: configured method and headers, ${VAR} expansion at call time, caps and refusals. */
import { afterAll, describe, expect, test } from "bun:test";
import { createRemoteTriggerTool, type RemoteTriggerOptions, type RemoteTriggers } from "../../src/builtin/remote-trigger.ts";
import { resultText } from "../../src/tool/result.ts";
import { makeWorkspace } from "./fixture.ts";

interface Seen {
  method: string;
  path: string;
  authorization: string | null;
  contentType: string | null;
  body: string;
}

const seen: Seen[] = [];
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    const url = new URL(request.url);
    seen.push({
      method: request.method,
      path: url.pathname + url.search,
      authorization: request.headers.get("authorization"),
      contentType: request.headers.get("content-type"),
      body: await request.text(),
    });
    if (url.pathname === "/fail") return new Response("deploy refused: branch locked", { status: 409 });
    if (url.pathname === "/big") return new Response("y".repeat(10_000));
    if (url.pathname === "/slow") return new Promise<Response>(() => {});
    if (url.pathname === "/moved") return Response.redirect("http://127.0.0.1:1/elsewhere", 302);
    return Response.json({ accepted: true });
  },
});
afterAll(() => server.stop(true));
const base = `http://127.0.0.1:${server.port}`;

const triggers: RemoteTriggers = {
  deploy: { url: `${base}/hooks/deploy?env=\${DEPLOY_ENV:-staging}`, method: "POST", headers: { Authorization: "Bearer ${DEPLOY_TOKEN}" } },
  status: { url: `${base}/status`, method: "GET", headers: {} },
  failing: { url: `${base}/fail`, method: "PUT", headers: {} },
  chatty: { url: `${base}/big`, method: "POST", headers: {} },
  slow: { url: `${base}/slow`, method: "POST", headers: {} },
  moved: { url: `${base}/moved`, method: "POST", headers: { Authorization: "Bearer secret" } },
  unset: { url: `${base}/x`, method: "POST", headers: { "X-Key": "${MISSING_KEY}" } },
};

async function trigger(input: Record<string, unknown>, options: Partial<RemoteTriggerOptions> = {}) {
  using workspace = makeWorkspace();
  const tool = createRemoteTriggerTool({ triggers, env: { DEPLOY_TOKEN: "t0ken" }, ...options });
  const result = await workspace.call("RemoteTrigger", input, { tools: [tool] });
  return { text: resultText(result), isError: result.isError, structured: result.structuredContent };
}

describe("RemoteTrigger", () => {
  test("calls the configured endpoint with its method, expanded headers and the JSON payload", async () => {
    const before = seen.length;
    const result = await trigger({ trigger: "deploy", payload: { ref: "main", force: false } });
    expect(result).toEqual({
      text: 'Trigger "deploy" answered 200 OK.\n\n{"accepted":true}',
      isError: false,
      structured: { trigger: "deploy", status: 200, body: '{"accepted":true}', truncated: false },
    });
    expect(seen.slice(before)).toEqual([
      { method: "POST", path: "/hooks/deploy?env=staging", authorization: "Bearer t0ken", contentType: "application/json", body: '{"ref":"main","force":false}' },
    ]);
  });

  test("variables are read at call time, so a changed environment needs no rebuild", async () => {
    const env: NodeJS.ProcessEnv = { DEPLOY_TOKEN: "first" };
    using workspace = makeWorkspace();
    const tool = createRemoteTriggerTool({ triggers, env });
    const before = seen.length;
    await workspace.call("RemoteTrigger", { trigger: "deploy" }, { tools: [tool] });
    env.DEPLOY_TOKEN = "second";
    env.DEPLOY_ENV = "prod";
    await workspace.call("RemoteTrigger", { trigger: "deploy" }, { tools: [tool] });
    expect(seen.slice(before).map(({ path, authorization, body }) => ({ path, authorization, body }))).toEqual([
      { path: "/hooks/deploy?env=staging", authorization: "Bearer first", body: "" },
      { path: "/hooks/deploy?env=prod", authorization: "Bearer second", body: "" },
    ]);
  });

  test("an unset variable is refused by name and nothing is sent", async () => {
    const before = seen.length;
    expect(await trigger({ trigger: "unset" })).toEqual({
      text: 'Trigger "unset" cannot be called: its headers.X-Key uses ${MISSING_KEY}, but MISSING_KEY is not set in the daemon\'s environment and has no default. Ask the operator to set it.',
      isError: true,
      structured: undefined,
    });
    expect(seen.length).toBe(before);
  });

  test("an unknown trigger is refused, listing the configured ones", async () => {
    expect((await trigger({ trigger: "launch" })).text).toBe(
      '"launch" is not a configured remote trigger. Configured triggers: chatty, deploy, failing, moved, slow, status, unset.',
    );
    expect((await trigger({ trigger: "toString" })).isError).toBe(true);
    expect((await trigger({ trigger: "deploy" }, { triggers: {} })).text).toBe(
      '"deploy" is not a configured remote trigger, and none are configured (the operator adds them under remoteTriggers in the daemon config).',
    );
  });

  test("the status and body are returned; a failing status is an error result", async () => {
    expect(await trigger({ trigger: "failing" })).toEqual({
      text: 'Trigger "failing" answered 409 Conflict.\n\ndeploy refused: branch locked',
      isError: true,
      structured: { trigger: "failing", status: 409, body: "deploy refused: branch locked", truncated: false },
    });
  });

  test("a GET trigger takes no payload", async () => {
    expect((await trigger({ trigger: "status", payload: { a: 1 } })).text).toBe('Trigger "status" uses GET, which takes no payload; call it without one.');
    expect((await trigger({ trigger: "status" })).isError).toBe(false);
  });

  test("the response is capped in bytes", async () => {
    const { text, structured } = await trigger({ trigger: "chatty" }, { maxResponseBytes: 100 });
    expect(text).toBe(`Trigger "chatty" answered 200 OK.\n\n${"y".repeat(100)}\n[Response cut after 100 bytes.]`);
    expect(structured?.truncated).toBe(true);
  });

  test("a trigger that does not answer in time is stopped, and the model is told it may have run", async () => {
    expect((await trigger({ trigger: "slow" }, { timeoutMs: 150 })).text).toBe('Trigger "slow" did not answer within 0.15 s; it may or may not have run.');
  });

  test("redirects are reported, not followed, so configured secrets go nowhere else", async () => {
    const before = seen.length;
    const { text } = await trigger({ trigger: "moved" });
    expect(text).toBe('Trigger "moved" answered 302 Found (a redirect to http://127.0.0.1:1/elsewhere, not followed).\n\n(empty body)');
    expect(seen.length).toBe(before + 1);
  });

  test("the description lists the configured names; the permission subject is the trigger name", () => {
    const tool = createRemoteTriggerTool({ triggers });
    expect(tool.description).toEndWith("\n\nConfigured triggers: chatty, deploy, failing, moved, slow, status, unset.");
    expect(tool.permissionSubject({ trigger: "deploy" }, "/")).toBe("deploy");
    expect({ deferred: tool.shouldDefer, readOnly: tool.isReadOnly({}), hints: tool.hints }).toEqual({ deferred: true, readOnly: false, hints: { openWorldHint: true } });
  });
});
