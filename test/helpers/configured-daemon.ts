import { join } from "node:path";
import { startBinaryDaemon } from "./binary.ts";
import { tempSocketDir } from "./daemon-harness.ts";
import { RawClient } from "./raw-client.ts";

/** A socket request's result; an error answer throws, naming the method and the error. */
export type SocketRequest = (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface ConfiguredDaemon extends AsyncDisposable {
  socketPath: string;
  daemon: Awaited<ReturnType<typeof startBinaryDaemon>>;
  request: SocketRequest;
}

/**
 * The compiled daemon serving `serve --config <configPath>` (state under `root`, cwd `root`) and one
 * raw client on its socket, returned once `ready` says so (polled every 50 ms, at most 60 s; `what`
 * names the wait in the error).
 */
export async function startConfiguredDaemon(root: string, configPath: string, ready: (request: SocketRequest) => Promise<boolean>, what: string): Promise<ConfiguredDaemon> {
  const socketPath = join(tempSocketDir(), "d.sock");
  const daemon = await startBinaryDaemon(socketPath, ["--config", configPath], { XDG_STATE_HOME: join(root, "state") }, undefined, root);
  const client = await RawClient.open(socketPath);
  const request: SocketRequest = async (method, params = {}) => {
    const answer = (await client.request(method, params)) as { result?: Record<string, unknown>; error?: unknown };
    client.messages.length = 0;
    if (answer.result === undefined) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  };
  const deadline = Date.now() + 60_000;
  while (!(await ready(request))) {
    if (Date.now() > deadline) throw new Error(`${what} never happened`);
    await Bun.sleep(50);
  }
  return {
    socketPath,
    daemon,
    request,
    async [Symbol.asyncDispose]() {
      client.close();
      await daemon[Symbol.asyncDispose]();
    },
  };
}
