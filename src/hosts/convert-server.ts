/**
 * One host server entry to a toolpool `mcpServers` entry. Host variables become toolpool's
 * `${VAR}`: `${env:X}` (VS Code, Cursor, Windsurf) is `${X}`, a VS Code `${input:id}` prompt is
 * `${ID}` with a note to set it, `${userHome}` and a project's `${workspaceFolder}` are filled in.
 * What has no toolpool equivalent is named in a note, never dropped silently; a server that
 * cannot be converted faithfully is imported disabled, with the reason.
 */
import { mcpServerSchema } from "../config/schema.ts";
import type { FileFormat } from "./host-files.ts";

export interface ConvertContext {
  format: FileFormat;
  /** The project directory for a project file (`${workspaceFolder}`), else undefined. */
  projectDir?: string;
  home: string;
  /** VS Code `inputs`: id → description. */
  inputs: ReadonlyMap<string, string>;
}

export interface Converted {
  config?: Record<string, unknown>;
  notes: string[];
}

const NAME_RULE = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_ARGS = 1_000;
/** Fields carried over; anything else is named in a note. */
const CARRIED: ReadonlySet<string> = new Set(["type", "command", "args", "env", "cwd", "url", "serverUrl", "headers", "disabled"]);

/** A name toolpool accepts: the host's name when it fits, else the nearest that does. */
export function toolpoolName(name: string): string {
  if (NAME_RULE.test(name)) return name;
  const cleaned = name.replace(/[^a-zA-Z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64);
  return cleaned || "server";
}

/** `toolpool mcp` itself (written by `host add`): importing it would make toolpool its own server. */
export function isToolpoolBridge(raw: Record<string, unknown>): boolean {
  const command = typeof raw.command === "string" ? raw.command : "";
  const args = Array.isArray(raw.args) ? raw.args : [];
  return /(^|\/)toolpool(-[a-z]+)?$/.test(command) && args[0] === "mcp";
}

export function convertServer(name: string, raw: unknown, context: ConvertContext): Converted {
  const notes: string[] = [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { notes: [`${name}: not an object; skipped`] };
  const entry = raw as Record<string, unknown>;
  let faithful = true;
  const text = (value: string, field: string): string => {
    const result = convertText(value, context);
    for (const note of result.notes) notes.push(`${name}: ${field}: ${note}`);
    if (!result.faithful) faithful = false;
    return result.text;
  };
  const strings = (value: unknown, field: string): Record<string, string> | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      notes.push(`${name}: ${field} is not an object; left out`);
      return undefined;
    }
    const out: Record<string, string> = {};
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === "string") out[key] = text(item, `${field}.${key}`);
      else if (typeof item === "number" || typeof item === "boolean") out[key] = String(item);
      else notes.push(`${name}: ${field}.${key} is not a string; left out`);
    }
    return out;
  };

  for (const key of Object.keys(entry)) if (!CARRIED.has(key)) notes.push(`${name}: field "${key}" has no toolpool equivalent; not carried`);
  const url = typeof entry.url === "string" ? entry.url : typeof entry.serverUrl === "string" ? entry.serverUrl : undefined;
  const type = typeof entry.type === "string" ? entry.type : undefined;
  let config: Record<string, unknown>;
  if (url !== undefined || type === "http" || type === "sse" || type === "streamable-http") {
    if (url === undefined) return { notes: [...notes, `${name}: a remote server without a url; skipped`] };
    const remoteType = type === "sse" ? "sse" : type === "http" || type === "streamable-http" ? "http" : guessRemoteType(url);
    if (type === undefined) notes.push(`${name}: no "type" given; imported as ${remoteType === "sse" ? "SSE (the URL ends in /sse)" : "Streamable HTTP"}`);
    const headers = strings(entry.headers, "headers");
    config = { type: remoteType, url: text(url, "url"), ...(headers && Object.keys(headers).length > 0 && { headers }) };
  } else if (typeof entry.command === "string" && entry.command !== "") {
    const args = Array.isArray(entry.args) ? entry.args.slice(0, MAX_ARGS) : [];
    if (Array.isArray(entry.args) && entry.args.length > MAX_ARGS) notes.push(`${name}: more than ${MAX_ARGS} args; the rest left out`);
    const env = strings(entry.env, "env");
    config = {
      command: text(entry.command, "command"),
      ...(args.length > 0 && { args: args.map((arg, index) => text(typeof arg === "string" ? arg : JSON.stringify(arg), `args.${index}`)) }),
      ...(env && Object.keys(env).length > 0 && { env }),
      ...(typeof entry.cwd === "string" && { cwd: text(entry.cwd, "cwd") }),
    };
  } else {
    return { notes: [...notes, `${name}: neither a "command" nor a "url"; skipped`] };
  }
  if (entry.disabled === true) config.disabled = true;
  if (!faithful && config.disabled !== true) {
    config.disabled = true;
    notes.push(`${name}: imported disabled until the references above are fixed`);
  }
  const checked = mcpServerSchema.safeParse(config);
  if (!checked.success) return { notes: [...notes, `${name}: not a valid toolpool server after conversion (${checked.error.issues[0]?.message}); skipped`] };
  return { config, notes };
}

function guessRemoteType(url: string): "http" | "sse" {
  try {
    return new URL(url).pathname.replace(/\/+$/, "").endsWith("/sse") ? "sse" : "http";
  } catch {
    return "http";
  }
}

/** `${input:api-key}` → `API_KEY`: the environment variable that stands in for a VS Code prompt. */
export function inputVariable(id: string): string {
  const name = id.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "").toUpperCase() || "INPUT";
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

interface TextResult {
  text: string;
  notes: string[];
  /** False when a reference could not be turned into something toolpool reads the same way. */
  faithful: boolean;
}

const HOST_REFERENCE = /\$\{([^}]*)\}/g;
const EDITOR_NAMES: ReadonlySet<string> = new Set(["userHome", "pathSeparator", "workspaceFolder", "workspaceRoot"]);

export function convertText(value: string, context: ConvertContext): TextResult {
  const notes: string[] = [];
  let faithful = true;
  const text = value.replace(HOST_REFERENCE, (whole, inner: string) => {
    const [kind, ...restParts] = inner.split(":");
    const rest = restParts.join(":");
    // Claude's formats use toolpool's own `${VAR}`; the editors' predefined names come first there.
    const editor = context.format === "vscode" || context.format === "cursor" || context.format === "windsurf";
    if (!(editor && EDITOR_NAMES.has(inner)) && /^[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?$/.test(inner)) return whole;
    if (kind === "env" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(rest)) return `\${${rest}}`;
    if (kind === "input" && rest) {
      const variable = inputVariable(rest);
      const description = context.inputs.get(rest);
      notes.push(`VS Code input "${rest}"${description ? ` (${description})` : ""} is now \${${variable}}: set ${variable} in the environment the daemon runs in`);
      return `\${${variable}}`;
    }
    if (inner === "userHome") return context.home;
    if (inner === "pathSeparator" || inner === "/") return "/";
    if (inner === "workspaceFolder" || inner === "workspaceRoot") {
      if (context.projectDir) return context.projectDir;
      notes.push(`\${${inner}} in a user-level file has no single value; now \${WORKSPACE_FOLDER}: set it, or edit the entry`);
      return "${WORKSPACE_FOLDER}";
    }
    notes.push(`${whole} cannot be converted (toolpool expands only \${VAR} and \${VAR:-default})`);
    faithful = false;
    return whole;
  });
  if (/\$\{[^}]*$/.test(text)) {
    notes.push(`an unclosed "\${" cannot be expanded`);
    faithful = false;
  }
  return { text, notes, faithful };
}
