/**
 * The pinned request of web-fetch-guard.ts against a real TLS server on loopback: the connection
 * goes to the IP address, while the Host header, SNI and the certificate check keep the host's
 * name — so pinning the checked address costs nothing in TLS verification.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { pinnedRequest } from "../../src/builtin/web-fetch-guard.ts";

const fixtures = join(import.meta.dir, "..", "fixtures", "tls");
const ca = await Bun.file(join(fixtures, "pinned-test.crt")).text();
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  tls: { cert: Bun.file(join(fixtures, "pinned-test.crt")), key: Bun.file(join(fixtures, "pinned-test.key")) },
  fetch: (request) => new Response(`host=${request.headers.get("host")} path=${new URL(request.url).pathname}`),
});
afterAll(() => server.stop(true));

function get(name: string): Promise<Response> {
  const pinned = pinnedRequest(new URL(`https://${name}:${server.port}/page`), { address: "127.0.0.1", family: 4 });
  return fetch(pinned.url, { headers: { host: pinned.host }, tls: { ...pinned.tls, ca } });
}

describe("WebFetch address pinning over real TLS", () => {
  test("the request reaches the pinned address and the server sees the host's name", async () => {
    const response = await get("pinned.test");
    expect(await response.text()).toBe(`host=pinned.test:${server.port} path=/page`);
  });

  test("the certificate is still checked against the host's name, not the address", async () => {
    await expect(get("other.test")).rejects.toThrow(/ALTNAME|certificate|hostname/i);
  });

  test("an IPv6 address is bracketed; plain http carries no TLS options", () => {
    const pinned = pinnedRequest(new URL("http://example.org:8080/a?b=c#d"), { address: "2001:db8::1", family: 6 });
    expect({ url: pinned.url.href, host: pinned.host, tls: pinned.tls }).toEqual({
      url: "http://[2001:db8::1]:8080/a?b=c#d",
      host: "example.org:8080",
      tls: undefined,
    });
  });
});
