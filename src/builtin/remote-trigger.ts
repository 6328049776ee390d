/**
 * RemoteTrigger: calls an HTTP endpoint the operator named in config (`remoteTriggers: {name: {url,
 * method, headers}}`). Secrets stay in the environment: `${VAR}` and `${VAR:-default}` in the URL and
 * headers are expanded at call time, so a rotated token needs no reload, and an unset variable is a
 * clear refusal naming it rather than a request sent with an empty token. Gated behind
 * AGENT_TRIGGERS_REMOTE; required only inside that `feature()` branch.
 */
import { z } from "zod";
import { buildTool, NO_PATHS } from "../tool/build-tool.ts";
import { errorResult, textResult } from "../tool/result.ts";
import type { Tool } from "../tool/tool.ts";
import { readBoundedBody } from "./web-content.ts";
import description from "./remote-trigger.txt" with { type: "text" };

export const DEFAULT_TRIGGER_TIMEOUT_MS = 30_000;
/** Response bytes read: a status report, not a download. */
export const DEFAULT_TRIGGER_MAX_RESPONSE_BYTES = 64 * 1024;
const MAX_PAYLOAD_CHARS = 256 * 1024;
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface RemoteTriggerConfig {
  url: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers: Record<string, string>;
}

export type RemoteTriggers = Readonly<Record<string, RemoteTriggerConfig>>;

export interface RemoteTriggerOptions {
  /** The configured triggers; a function is read at every call, so a config reload takes effect. */
  triggers: RemoteTriggers | (() => RemoteTriggers);
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

class UnsetVariableError extends Error {}

const inputSchema = () =>
  z.strictObject({
    trigger: z.string().min(1).max(200).describe("The name of a configured trigger."),
    payload: z.unknown().optional().describe("Any JSON value, sent as the JSON request body (not for GET triggers)."),
  });

export function createRemoteTriggerTool(options: RemoteTriggerOptions): Tool {
  const triggers = typeof options.triggers === "function" ? options.triggers : () => options.triggers as RemoteTriggers;
  const fetchImpl = options.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TRIGGER_TIMEOUT_MS;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_TRIGGER_MAX_RESPONSE_BYTES;
  const names = Object.keys(triggers()).sort();
  const listed = names.length > 0 ? `Configured triggers: ${names.join(", ")}.` : "No triggers are configured yet.";

  return buildTool({
    name: "RemoteTrigger",
    description: `${description.trimEnd()}\n\n${listed}`,
    searchHint: "webhook http endpoint deploy hook notify run remote job",
    inputSchema,
    access: () => NO_PATHS,
    shouldDefer: true,
    timeoutMs: timeoutMs + 5_000,
    openWorld: true,
    permissionSubject: ({ trigger }) => trigger,
    async call({ trigger, payload }, context) {
      const known = triggers();
      const config = Object.hasOwn(known, trigger) ? known[trigger] : undefined;
      if (!config) {
        const available = Object.keys(known).sort();
        return errorResult(
          available.length === 0
            ? `"${trigger}" is not a configured remote trigger, and none are configured (the operator adds them under remoteTriggers in the daemon config).`
            : `"${trigger}" is not a configured remote trigger. Configured triggers: ${available.join(", ")}.`,
        );
      }
      const hasBody = payload !== undefined;
      if (hasBody && config.method === "GET") return errorResult(`Trigger "${trigger}" uses GET, which takes no payload; call it without one.`);
      const body = hasBody ? JSON.stringify(payload) : undefined;
      if (body !== undefined && body.length > MAX_PAYLOAD_CHARS) {
        return errorResult(`The payload is ${body.length.toLocaleString("en-US")} characters of JSON; the limit is ${MAX_PAYLOAD_CHARS.toLocaleString("en-US")}.`);
      }
      let url: string;
      let headers: Record<string, string>;
      try {
        url = expand(config.url, env, trigger, "url");
        headers = Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, expand(value, env, trigger, `headers.${name}`)]));
      } catch (error) {
        if (error instanceof UnsetVariableError) return errorResult(error.message);
        throw error;
      }
      if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) headers["content-type"] = "application/json";
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
      try {
        // Redirects are not followed: the configured headers carry secrets meant for this URL only.
        const response = await fetchImpl(url, { method: config.method, headers, signal, redirect: "manual", ...(body !== undefined && { body }) });
        const read = await readBoundedBody(response, maxResponseBytes);
        const cut = read.truncated ? `\n[Response cut after ${maxResponseBytes.toLocaleString("en-US")} bytes.]` : "";
        const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
        const location = response.headers.get("location");
        const redirect = location === null ? "" : ` (a redirect to ${location}, not followed)`;
        const text = `Trigger "${trigger}" answered ${status}${redirect}.\n\n${read.text === "" ? "(empty body)" : read.text}${cut}`;
        const structured = { trigger, status: response.status, body: read.text, truncated: read.truncated };
        return response.status >= 400 ? { ...textResult(text, structured), isError: true } : textResult(text, structured);
      } catch (error) {
        if (signal.aborted && !context.signal.aborted) return errorResult(`Trigger "${trigger}" did not answer within ${timeoutMs / 1000} s; it may or may not have run.`);
        if (context.signal.aborted) throw error;
        // The URL may hold an expanded secret, so the error names the trigger, not the URL.
        return errorResult(`Trigger "${trigger}" could not be reached: ${(error as Error).message.replaceAll(url, "<configured URL>")}`);
      }
    },
  });
}

/** `${VAR}` / `${VAR:-default}`; an unset variable without a default is refused, naming it. */
function expand(text: string, env: NodeJS.ProcessEnv, trigger: string, field: string): string {
  return text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    if (value === "") return "";
    throw new UnsetVariableError(
      `Trigger "${trigger}" cannot be called: its ${field} uses \${${name}}, but ${name} is not set in the daemon's environment and has no default. Ask the operator to set it.`,
    );
  });
}
