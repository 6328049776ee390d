import { describe, expect, test } from "bun:test";
import { checkLoopbackRequest } from "../../src/bridge/host-guard.ts";
import { endpointUrl, parseListenAddress } from "../../src/bridge/listen-address.ts";

describe("--http address: loopback only", () => {
  test("loopback forms parse; a bare port means 127.0.0.1", () => {
    expect(["127.0.0.1:8765", "localhost:0", "[::1]:9000", "8080"].map(parseListenAddress)).toEqual([
      { hostname: "127.0.0.1", port: 8765 },
      { hostname: "localhost", port: 0 },
      { hostname: "::1", port: 9000 },
      { hostname: "127.0.0.1", port: 8080 },
    ]);
    expect(endpointUrl("::1", 9000, "/mcp")).toBe("http://[::1]:9000/mcp");
  });

  test("anything reachable from elsewhere, or malformed, is refused with the reason", () => {
    expect(() => parseListenAddress("0.0.0.0:8080")).toThrow("loopback only (127.0.0.1, localhost or [::1]), not 0.0.0.0");
    expect(() => parseListenAddress("192.168.1.5:80")).toThrow("not 192.168.1.5");
    expect(() => parseListenAddress("[::]:80")).toThrow("not ::");
    expect(() => parseListenAddress("localhost")).toThrow("--http takes HOST:PORT");
    expect(() => parseListenAddress("127.0.0.1:70000")).toThrow("port out of range");
  });
});

describe("DNS-rebinding guard", () => {
  const verdict = (headers: Record<string, string>) => checkLoopbackRequest(new Headers(headers));
  test("loopback Host, with or without a loopback Origin, passes", () => {
    for (const host of ["127.0.0.1:1234", "localhost:1234", "[::1]:1234", "LOCALHOST", "127.0.0.1"]) {
      expect(verdict({ host })).toEqual({ allowed: true });
      expect(verdict({ host, origin: "http://localhost:3000" })).toEqual({ allowed: true });
    }
  });

  test("a foreign Host, a foreign or opaque Origin, or no Host at all is refused", () => {
    expect(verdict({})).toEqual({ allowed: false, status: 400, reason: "missing Host header" });
    expect(verdict({ host: "evil.example.com" })).toEqual({ allowed: false, status: 403, reason: 'Host "evil.example.com" is not a loopback host' });
    expect(verdict({ host: "127.0.0.1.evil.example:80" }).allowed).toBe(false);
    expect(verdict({ host: "localhost:1", origin: "https://evil.example.com" })).toEqual({
      allowed: false,
      status: 403,
      reason: 'Origin "https://evil.example.com" is not a loopback origin',
    });
    expect(verdict({ host: "localhost:1", origin: "null" }).allowed).toBe(false);
  });

  test("a Host that is not host[:port] at all is a 400, named, whatever loopback name it starts with", () => {
    for (const host of ["localhost/x", "localhost:99999", "localhost:abc", "[::1", "localhost@evil", "user@localhost", "localhost:80:80", "%", "localhost#x", "localhost?x", "[::1]:x", "localhost:-1"]) {
      expect({ host, verdict: verdict({ host }) }).toEqual({ host, verdict: { allowed: false, status: 400, reason: `malformed Host header ${JSON.stringify(host)}` } });
    }
  });
});

describe("the HTTP bridge's token", () => {
  test("made once, 0600 in the state dir, the same on the next run; a damaged file is replaced", async () => {
    const { bridgeToken, tokenMatches, BRIDGE_TOKEN_FILE } = await import("../../src/bridge/bridge-token.ts");
    const { mkdtempSync, statSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const env = { XDG_STATE_HOME: mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "token-")) };
    const first = bridgeToken(env);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const path = join(env.XDG_STATE_HOME, "toolpool", BRIDGE_TOKEN_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(bridgeToken(env)).toBe(first);
    const { chmodSync } = await import("node:fs");
    chmodSync(path, 0o644);
    expect(bridgeToken(env)).toBe(first);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeFileSync(path, "short\n");
    const replaced = bridgeToken(env);
    expect(replaced).not.toBe(first);
    expect(replaced).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([tokenMatches(replaced, replaced), tokenMatches(replaced.slice(1), replaced), tokenMatches(undefined, replaced)]).toEqual([true, false, false]);
  });
});
