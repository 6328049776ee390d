/**
 * The command-line agents' server entries in the shape the editors' use, so one converter reads
 * them all. Gemini CLI: `url` is an SSE endpoint and `httpUrl` a Streamable HTTP one. Codex CLI
 * (TOML): `url` is Streamable HTTP, a bearer token comes from `bearer_token_env_var`, headers from
 * `http_headers` and `env_http_headers` (header → variable), and `enabled = false` switches a server
 * off. Fields with no toolpool equivalent (timeouts, tool filters, `trust`) pass through, so the
 * converter names them in a note.
 */
import type { FileFormat } from "./host-files.ts";

export function agentEntry(format: FileFormat, raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const entry = { ...(raw as Record<string, unknown>) };
  if (format === "gemini-cli") {
    // Gemini expands $VAR as well as ${VAR}; toolpool reads only the braced form.
    for (const field of ["env", "headers"] as const) {
      if (!isRecord(entry[field])) continue;
      entry[field] = Object.fromEntries(Object.entries(entry[field]).map(([key, value]) => [key, typeof value === "string" ? braced(value) : value]));
    }
    if (Array.isArray(entry.args)) entry.args = entry.args.map((arg) => (typeof arg === "string" ? braced(arg) : arg));
    if (typeof entry.httpUrl === "string") {
      entry.type = "http";
      entry.url = entry.httpUrl;
      delete entry.httpUrl;
    } else if (typeof entry.url === "string" && entry.type === undefined) entry.type = "sse";
    return entry;
  }
  if (format !== "codex") return raw;
  if (typeof entry.url === "string" && entry.type === undefined) entry.type = "http";
  const headers: Record<string, unknown> = {};
  if (isRecord(entry.http_headers)) Object.assign(headers, entry.http_headers);
  if (isRecord(entry.env_http_headers)) {
    for (const [header, variable] of Object.entries(entry.env_http_headers)) if (typeof variable === "string") headers[header] = `\${${variable}}`;
  }
  if (typeof entry.bearer_token_env_var === "string") headers.Authorization = `Bearer \${${entry.bearer_token_env_var}}`;
  delete entry.http_headers;
  delete entry.env_http_headers;
  delete entry.bearer_token_env_var;
  if (Object.keys(headers).length > 0) entry.headers = headers;
  if (entry.enabled === false) entry.disabled = true;
  delete entry.enabled;
  return entry;
}

function braced(text: string): string {
  return text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => `\${${name}}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
