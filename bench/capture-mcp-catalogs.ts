/**
 * Captures the `initialize` result and `tools/list` catalog of popular MCP servers from npm, once,
 * into bench/data/real-servers.json (the pool of bench/search-quality.ts --real). Each package is
 * installed into a temporary folder with npm (`--ignore-scripts`: no browser or binary downloads),
 * started over stdio with dummy credentials, asked `initialize` + `tools/list`, then killed.
 * A server that does not list its tools without real credentials is skipped and reported.
 *
 *   bun run bench/capture-mcp-catalogs.ts [--out FILE] [--only name,name]
 *
 * Needs the npm registry; nothing here runs in tests or CI. Servers only talk to loopback or fail.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "./lib/args.ts";
import { repoRoot } from "./lib/eval-data.ts";
import { REAL_SERVERS, type RealServerSpec } from "./lib/real-server-list.ts";

const STEP_TIMEOUT_MS = 45_000;
const MAX_PAGES = 20;

export interface CapturedServer {
  server: string;
  package: string;
  version: string;
  license: string;
  serverInfo?: unknown;
  instructions?: string;
  tools: { name: string; description?: string; inputSchema?: unknown }[];
}

const args = parseArgs(Bun.argv.slice(2), { out: "value", only: "value" });
const out = args.get("out") ?? join(repoRoot(), "bench/data/real-servers.json");
const only = args.get("only")?.split(",");
const specs = REAL_SERVERS.filter((spec) => only === undefined || only.includes(spec.server));
const work = mkdtempSync(join(tmpdir(), "toolpool-capture-"));
const home = mkdtempSync(join(tmpdir(), "toolpool-capture-home-"));

const captured: CapturedServer[] = [];
const skipped: { server: string; package: string; reason: string }[] = [];
for (const spec of specs) {
  const folder = join(work, spec.server);
  try {
    await install(spec, folder);
    const manifest = JSON.parse(readFileSync(join(folder, "node_modules", spec.package, "package.json"), "utf8"));
    const entry = binEntry(manifest, spec);
    const result = await listTools(spec, join(folder, "node_modules", spec.package, entry), folder);
    captured.push({
      server: spec.server,
      package: spec.package,
      version: String(manifest.version),
      license: String(manifest.license ?? "UNLICENSED (not declared)"),
      ...result,
    });
    console.error(`ok   ${spec.server}: ${result.tools.length} tools (${spec.package}@${manifest.version})`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    skipped.push({ server: spec.server, package: spec.package, reason: reason.slice(0, 300) });
    console.error(`skip ${spec.server}: ${reason.slice(0, 200)}`);
  }
}

type DataFile = { servers: CapturedServer[]; skipped: typeof skipped };
const previous: DataFile = existsSync(out) && only !== undefined ? JSON.parse(readFileSync(out, "utf8")) : { servers: [], skipped: [] };
const retried = (server: string) => specs.some((spec) => spec.server === server);
const merged = [...previous.servers.filter((old) => !retried(old.server)), ...captured];
skipped.push(...previous.skipped.filter((old) => !retried(old.server)));
merged.sort((a, b) => a.server.localeCompare(b.server));
writeFileSync(
  out,
  JSON.stringify({ captured: new Date().toISOString().slice(0, 10), note: "tools/list of each package started with dummy credentials", servers: merged, skipped }, null, 1) + "\n",
);
console.log(JSON.stringify({ servers: merged.length, tools: merged.reduce((n, s) => n + s.tools.length, 0), skipped }, null, 2));

async function install(spec: RealServerSpec, folder: string): Promise<void> {
  await run("npm", ["install", "--prefix", folder, "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", spec.package], {
    cwd: work,
    timeoutMs: 300_000,
  });
}

function binEntry(manifest: { bin?: string | Record<string, string>; main?: string }, spec: RealServerSpec): string {
  if (spec.entry !== undefined) return spec.entry;
  if (typeof manifest.bin === "string") return manifest.bin;
  const bins = Object.values(manifest.bin ?? {});
  if (bins.length > 0) return bins[0]!;
  if (manifest.main) return manifest.main;
  throw new Error("package has no bin or main");
}

function run(command: string, argv: string[], options: { cwd: string; timeoutMs: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: options.cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-2000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${stderr.trim()}`));
    });
  });
}

/** initialize → notifications/initialized → tools/list (every page), over newline-delimited JSON-RPC. */
function listTools(spec: RealServerSpec, entry: string, cwd: string): Promise<Omit<CapturedServer, "server" | "package" | "version" | "license">> {
  for (const [file, text] of Object.entries(spec.files ?? {})) writeFileSync(join(cwd, file), text);
  const env = Object.fromEntries(Object.entries(spec.env ?? {}).map(([key, value]) => [key, value.replace("$TMP", cwd)]));
  const child = spawn("node", [entry, ...(spec.args ?? []).map((arg) => arg.replace("$TMP", cwd))], {
    cwd,
    stdio: ["pipe", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "", HOME: home, NODE_ENV: "production", PUPPETEER_SKIP_DOWNLOAD: "1", ...env },
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-1500)));
  const waiting = new Map<number, (message: { result?: unknown; error?: { message?: string } }) => void>();
  let buffer = "";
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line.startsWith("{")) continue;
      try {
        const message = JSON.parse(line);
        if (typeof message.id === "number" && waiting.has(message.id)) waiting.get(message.id)!(message);
      } catch {
        // a log line that happens to start with "{"
      }
    }
  });
  let nextId = 1;
  const exited = new Promise<never>((_, reject) =>
    child.on("close", (code) => reject(new Error(`server exited (${code}) before answering: ${stderr.trim().slice(-400)}`))),
  );
  const request = (method: string, params: unknown): Promise<any> => {
    const id = nextId++;
    const answer = new Promise<any>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method} timed out: ${stderr.trim().slice(-400)}`)), STEP_TIMEOUT_MS);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result);
      });
    });
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    return Promise.race([answer, exited]);
  };
  const session = async () => {
    const init = await request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "toolpool-capture", version: "0.1.0" },
    });
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    const tools: CapturedServer["tools"] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const listed = await request("tools/list", cursor === undefined ? {} : { cursor });
      for (const tool of listed.tools ?? []) tools.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    if (tools.length === 0) throw new Error("tools/list returned no tools");
    const captured: Omit<CapturedServer, "server" | "package" | "version" | "license"> = { tools };
    if (init?.serverInfo !== undefined) captured.serverInfo = init.serverInfo;
    if (typeof init?.instructions === "string" && init.instructions.length > 0) captured.instructions = init.instructions;
    return captured;
  };
  return session().finally(() => {
    exited.catch(() => {});
    child.kill("SIGKILL");
  });
}
