/**
 * Socket discovery against another local user: the default socket path (/tmp/toolpool-<uid>/…, or
 * $XDG_RUNTIME_DIR/toolpool/…) is only a name, and a directory of someone else's there, with their
 * socket listening in it, must not receive our requests. Needs root to make a file of another uid.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { locateDaemon } from "../../src/client/socket-discovery.ts";

const made: string[] = [];
const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const OTHER_UID = 12_345;
const describeRoot = process.getuid?.() === 0 ? describe : describe.skip;

/** A listening socket at `path`, its directory and the socket given to `owner`, mode `mode`. */
async function listenAs(path: string, owner: number, mode: number): Promise<void> {
  const directory = join(path, "..");
  mkdirSync(directory, { recursive: true });
  const server = createServer((socket) => socket.end());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  chownSync(directory, owner, owner);
  chownSync(path, owner, owner);
  chmodSync(directory, mode);
}

describeRoot("locateDaemon and a socket another user planted", () => {
  test("the /tmp default of our uid, made and listened on by another user, is refused with whose it is", async () => {
    const uid = 4_000_000 + Math.floor(Math.random() * 100_000);
    const planted = `/tmp/toolpool-${uid}`;
    made.push(planted);
    await listenAs(join(planted, "toolpool.sock"), OTHER_UID, 0o755);
    const home = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "victim-"));
    await expect(locateDaemon({ env: { HOME: home }, uid })).rejects.toThrow(`socket directory ${planted} is owned by uid ${OTHER_UID}, not by you (uid ${uid}); refusing to connect there`);
  });

  test("the same under $XDG_RUNTIME_DIR; a socket of ours in a private directory of ours is answered", async () => {
    const uid = process.getuid!();
    const run = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "run-"));
    await listenAs(join(run, "toolpool", "toolpool.sock"), OTHER_UID, 0o700);
    const home = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "victim-"));
    await expect(locateDaemon({ env: { HOME: home, XDG_RUNTIME_DIR: run }, uid })).rejects.toThrow(`is owned by uid ${OTHER_UID}, not by you`);

    const ours = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "run-"));
    await listenAs(join(ours, "toolpool", "toolpool.sock"), uid, 0o700);
    expect(await locateDaemon({ env: { HOME: home, XDG_RUNTIME_DIR: ours }, uid })).toEqual({ socketPath: join(ours, "toolpool", "toolpool.sock"), source: "environment", answering: true });
  });

  test("a trusted record whose socket's directory is now another user's (a reboot emptied /tmp) is not where we connect", async () => {
    const uid = process.getuid!();
    const home = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "victim-"));
    const taken = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "taken-"));
    made.push(taken);
    await listenAs(join(taken, "s.sock"), OTHER_UID, 0o700);
    const recordDir = join(home, ".local", "state", "toolpool");
    mkdirSync(recordDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(recordDir, "daemon.json"), JSON.stringify({ socket: join(taken, "s.sock"), pid: 1, config: null, startedAt: "" }), { mode: 0o600 });
    // Nothing answers anywhere (the record's socket is not ours, so it is not even tried).
    const found = await locateDaemon({ env: { HOME: home }, uid, answers: async () => false });
    expect(found.record?.socket).toBe(join(taken, "s.sock"));
    expect(found.socketPath).not.toBe(join(taken, "s.sock"));
  });
});
