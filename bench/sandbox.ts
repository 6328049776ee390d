#!/usr/bin/env bun
/**
 * Sandbox benchmark: the cost the kernel sandbox adds to a Bash call, over the socket against the
 * compiled daemon. Three daemons run side by side in one run — sandbox off, sandbox on, and sandbox
 * on with a `Read(**\/.env)` deny rule over a workspace of a few hundred files (the walk that finds
 * what to hide) — and the calls alternate between them, so machine load falls on all alike.
 * Prints one JSON line per command (p50/p99 per daemon, added p50) and one with the sandbox probe
 * time the daemon measured at start. The goal: under 5 ms added at p50.
 * Usage: bun bench/sandbox.ts [--tier pro] [--binary PATH] [--calls 200]
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "./lib/args.ts";
import { percentile, round } from "./lib/stats.ts";
import { NdjsonClient } from "./lib/ndjson-client.ts";

const args = parseArgs(process.argv.slice(2), { tier: "value", binary: "value", calls: "value" });
const binary = resolve(args.get("binary") ?? join(import.meta.dir, "..", "dist", `toolpool-${args.get("tier") ?? "pro"}`));
const calls = Number(args.get("calls") ?? 200);
const base = mkdtempSync("/tmp/tpbench-sandbox-");


interface Variant {
  name: string;
  client: NdjsonClient;
  sessionId: string;
  child: ReturnType<typeof Bun.spawn>;
  status: Record<string, unknown>;
}

async function startVariant(name: string, config: Record<string, unknown>, files: number): Promise<Variant> {
  const dir = join(base, name);
  const root = join(dir, "ws");
  mkdirSync(join(root, "src"), { recursive: true });
  chmodSync(dir, 0o700);
  for (let index = 0; index < files; index++) writeFileSync(join(root, "src", `f${index}.ts`), "x");
  writeFileSync(join(root, ".env"), "TOKEN=x");
  const configPath = join(dir, "config.json");
  writeFileSync(configPath, JSON.stringify({ workspaceRoots: [realpathSync(root)], ...config }));
  const socketPath = join(dir, "s.sock");
  const env = { ...process.env, HOME: dir, XDG_STATE_HOME: join(dir, "state"), XDG_CONFIG_HOME: join(dir, "config") };
  const child = Bun.spawn([binary, "serve", "--socket", socketPath, "--config", configPath], { env, stdout: "ignore", stderr: "pipe" });
  let stderr = "";
  const reader = (async () => {
    for await (const chunk of child.stderr as ReadableStream<Uint8Array>) stderr += new TextDecoder().decode(chunk);
  })();
  const deadline = Date.now() + 15_000;
  while (!stderr.includes('"listening"')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${name} did not start: ${stderr}`);
    await Bun.sleep(5);
  }
  void reader;
  const client = await NdjsonClient.open(socketPath);
  const sessionId = ((await client.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
  const status = (await client.request("toolpool/status", {})).result as Record<string, unknown>;
  return { name, client, sessionId, child, status };
}

async function timeCall(variant: Variant, command: string): Promise<number> {
  const started = performance.now();
  const reply = (await variant.client.request("toolpool/call", { sessionId: variant.sessionId, name: "Bash", input: { command } })).result as { isError: boolean; content: { text: string }[] };
  const elapsed = performance.now() - started;
  if (reply.isError) throw new Error(`${variant.name}: ${command}: ${reply.content.map((block) => block.text).join("")}`);
  return elapsed;
}

const variants = [
  await startVariant("off", { sandbox: { mode: "off" } }, 300),
  await startVariant("sandboxed", { sandbox: { mode: "required" } }, 300),
  await startVariant("sandboxed_deny_env", { sandbox: { mode: "required" }, permissions: { deny: ["Read(**/.env)"] } }, 300),
];
try {
  for (const command of ["true", "echo hi"]) {
    const samples = new Map(variants.map((variant) => [variant.name, [] as number[]]));
    for (const variant of variants) for (let index = 0; index < 10; index++) await timeCall(variant, command); // warm-up
    for (let index = 0; index < calls; index++) {
      for (const variant of variants) samples.get(variant.name)!.push(await timeCall(variant, command));
    }
    const stat = (name: string) => ({ p50_ms: round(percentile(samples.get(name)!, 50), 2), p99_ms: round(percentile(samples.get(name)!, 99), 2) });
    const off = stat("off");
    const on = stat("sandboxed");
    const deny = stat("sandboxed_deny_env");
    console.log(
      JSON.stringify({
        bench: "sandbox",
        command,
        calls,
        unsandboxed: off,
        sandboxed: on,
        sandboxed_with_deny_rule_300_files: deny,
        added_p50_ms: round(on.p50_ms - off.p50_ms, 2),
        added_p50_ms_with_deny_rule: round(deny.p50_ms - off.p50_ms, 2),
        // Wall times on a loaded machine are mostly waiting for a core: the load says how loaded.
        load_average_1m: Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]),
      }),
    );
  }
  const sandbox = variants[1]!.status.sandbox as { probeMs: number; backend: string; landlockAbi?: number };
  console.log(JSON.stringify({ bench: "sandbox_probe", backend: sandbox.backend, probe_ms_at_daemon_start: sandbox.probeMs, landlock_abi: sandbox.landlockAbi ?? null }));
} finally {
  for (const variant of variants) {
    variant.client.close();
    variant.child.kill("SIGTERM");
    await variant.child.exited;
  }
}
