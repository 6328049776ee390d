/**
 * The command line both example agents share:
 *
 *   bun examples/anthropic-agent.ts [--socket PATH] [--prompt TEXT]… [--script FILE] [--compact-at CHARS] [--delivery NAME] [--json]
 *
 * With the provider's API key in the environment the agent talks to the real API; without one it
 * replays the script (examples/scripted/<provider>.json by default). A daemon must be running
 * (`toolpool serve`); the socket is found as the CLI finds it.
 */
import { parseArgs } from "node:util";
import { NotRunningError, ToolpoolClient } from "toolpool/client";

export interface AgentCliOptions {
  socketPath: string;
  prompts: string[];
  scriptPath: string | undefined;
  compactAtChars: number | undefined;
  json: boolean;
  model: string | undefined;
  delivery: "auto" | "native" | "proxy" | "mid-conversation" | "standard" | undefined;
}

const DELIVERIES = ["auto", "native", "proxy", "mid-conversation", "standard"] as const;

export function parseAgentArgs(argv: readonly string[]): AgentCliOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      socket: { type: "string" },
      prompt: { type: "string", multiple: true },
      script: { type: "string" },
      "compact-at": { type: "string" },
      model: { type: "string" },
      delivery: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const compactAt = values["compact-at"] === undefined ? undefined : Number(values["compact-at"]);
  if (compactAt !== undefined && (!Number.isInteger(compactAt) || compactAt < 1)) throw new Error("--compact-at takes a positive number of characters");
  const delivery = values.delivery as AgentCliOptions["delivery"];
  if (delivery !== undefined && !DELIVERIES.includes(delivery)) throw new Error(`--delivery takes one of ${DELIVERIES.join(", ")}`);
  return {
    socketPath: values.socket ?? defaultSocketPath(),
    prompts: values.prompt ?? [],
    scriptPath: values.script,
    compactAtChars: compactAt,
    json: values.json,
    model: values.model,
    delivery,
  };
}

/**
 * Says which model answers — the real API, or a recording replayed — and refuses `--prompt` with
 * a recording: a recording holds the answers to its own prompts, so replaying it for another
 * prompt would look like an answer to that prompt and is not one.
 */
export function announceMode(options: { provider: string; keyVariable: string; live: boolean; scriptPath: string; prompts: readonly string[]; write?: (line: string) => void }): void {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (options.live) {
    write(`${options.provider}: the real API (${options.keyVariable} is set)`);
    return;
  }
  if (options.prompts.length > 0) {
    throw new Error(
      `--prompt needs the real ${options.provider} API: set ${options.keyVariable}. Without it this example replays a recording (${options.scriptPath}), which answers only its own prompts.`,
    );
  }
  write(`${options.provider}: replaying a recorded session from ${options.scriptPath} (no ${options.keyVariable} set; set it to talk to the real API)`);
}

/** The daemon's socket as `toolpool` finds it (docs/protocol.md). */
export function defaultSocketPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOLPOOL_SOCKET) return env.TOOLPOOL_SOCKET;
  if (env.XDG_RUNTIME_DIR) return `${env.XDG_RUNTIME_DIR}/toolpool/toolpool.sock`;
  return `/tmp/toolpool-${process.getuid?.() ?? "user"}/toolpool.sock`;
}

export async function connectDaemon(socketPath: string): Promise<ToolpoolClient> {
  try {
    return await ToolpoolClient.connect(socketPath);
  } catch (error) {
    if (error instanceof NotRunningError) throw new Error(`no toolpool daemon on ${socketPath}: start one from the checkout with \`./dist/toolpool-pro serve\` (or \`toolpool serve\` once installed with \`./dist/toolpool-pro install\`)`);
    throw error;
  }
}

/** Runs an example's main and exits with 1 on failure, printing the reason. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
