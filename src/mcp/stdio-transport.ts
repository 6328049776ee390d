/**
 * An MCP Transport over a child process's stdin/stdout, written for a daemon rather than a CLI:
 * the child runs in its own process group, stderr goes to a bounded ring, lines up to
 * MAX_SERVER_LINE_BYTES are read (the SDK's StdioClientTransport stops at 10 MiB and makes no
 * process group), and closing — or the child dying — kills the whole group.
 */
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describeExit, killStrays, signalGroup, strayDescendants, type ChildExit, type ChildHandle, type SpawnProcess } from "./child-process.ts";
import { MessageFramer } from "./message-framer.ts";
import { OWN_NOTE, startedNote, type StderrRing } from "./stderr-ring.ts";
import { delay, type Timers } from "./timers.ts";

/** Messages of a server handed over in one event-loop turn at most (others' requests wait no longer). */
export const MESSAGES_PER_TURN = 32;
/** After the child exits, how long its last stdout bytes may take to arrive (a grandchild may hold the pipe open). */
const STDOUT_DRAIN_MS = 100;

export interface StdioTransportOptions {
  /** The server's config name, passed to spawn. */
  name?: string;
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  spawn: SpawnProcess;
  timers: Timers;
  stderr: StderrRing;
  maxLineBytes: number;
  graceMs: number;
}

export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  #child: ChildHandle | undefined;
  #exit: ChildExit | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(private readonly options: StdioTransportOptions) {}

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ChildExit | undefined {
    return this.#exit;
  }

  async start(): Promise<void> {
    if (this.#child) throw new Error("StdioProcessTransport already started");
    const { name, command, args, env, cwd } = this.options;
    try {
      this.#child = this.options.spawn({ ...(name !== undefined && { name }), command, args, env, ...(cwd !== undefined && { cwd }) });
    } catch (error) {
      throw new Error(`cannot start ${JSON.stringify(command)}: ${(error as Error).message}`);
    }
    const child = this.#child;
    this.options.stderr.add(startedNote(child.pid));
    const stdoutDone = this.#readStdout(child);
    void this.#readStderr(child);
    void child.exited.then(async (exit) => {
      this.#exit = exit;
      this.options.stderr.add(`${OWN_NOTE} process ${child.pid} ${describeExit(exit)}`);
      await Promise.race([stdoutDone, delay(this.options.timers, STDOUT_DRAIN_MS)]);
      // The leader is gone; whatever it left in its group goes too.
      signalGroup(child.pid, "SIGKILL");
      this.#finish();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#child || this.#closed || this.#exit) throw new Error("the server process is not running");
    try {
      await this.#child.write(serializeMessage(message));
    } catch (error) {
      throw new Error(`cannot write to the server process: ${(error as Error).message}`);
    }
  }

  /** Ends stdin, SIGTERM to the group, SIGKILL to what is left after the grace period. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#exit) return this.#finish();
    // Looked up before the group is signalled: once the server is gone its setsid-ed helpers have
    // no parent link left to find them by.
    const strays = strayDescendants(child.pid);
    child.endInput();
    signalGroup(child.pid, "SIGTERM");
    await Promise.race([child.exited, delay(this.options.timers, this.options.graceMs)]);
    signalGroup(child.pid, "SIGKILL");
    await child.exited;
    killStrays(strays);
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.options.stderr.end();
    this.onclose?.();
  }

  async #readStdout(child: ChildHandle): Promise<void> {
    const arrived: (() => void)[] = [];
    const framer = new MessageFramer(this.options.maxLineBytes, {
      line: (line) => arrived.push(() => this.#deliver(line)),
      oversized: (bytes, id) =>
        arrived.push(() => {
          const note = `server sent a ${bytes}-byte message, over the ${this.options.maxLineBytes}-byte limit; it was discarded`;
          this.options.stderr.add(`${OWN_NOTE} ${note}`);
          if (id === undefined) return this.onerror?.(new Error(note));
          this.onmessage?.({ jsonrpc: "2.0", id, error: { code: -32603, message: `MCP ${note}` } });
        }),
    });
    let inTurn = 0;
    try {
      for await (const chunk of child.stdout) {
        framer.push(chunk);
        // One message per microtask: the SDK runs notification handlers a microtask late but
        // settles responses at once, so a call's last progress notification handed over in the
        // same pass as its result would find the call already gone, and be dropped.
        // And a turn of the event loop every MESSAGES_PER_TURN: one read may hold megabytes of
        // messages, and handing them all over in microtasks holds the thread that serves every client.
        for (const deliver of arrived.splice(0)) {
          deliver();
          if (++inTurn < MESSAGES_PER_TURN) await Promise.resolve();
          else {
            inTurn = 0;
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
        }
      }
    } catch {
      // The pipe broke because the process died; its exit is handled on `exited`.
    }
  }

  #deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      // Servers that print logs on stdout are common; keep the line where `servers --logs` shows it.
      this.options.stderr.add(`[stdout, not JSON-RPC] ${line.slice(0, 500)}`);
      this.onerror?.(new Error(`server wrote a line that is not JSON-RPC: ${(error as Error).message}`));
      return;
    }
    this.onmessage?.(message);
  }

  async #readStderr(child: ChildHandle): Promise<void> {
    try {
      for await (const chunk of child.stderr) this.options.stderr.push(chunk);
    } catch {
      // As for stdout.
    }
  }
}
