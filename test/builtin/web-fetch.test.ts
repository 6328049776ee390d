/**
 * WebFetch against a loopback server the options allow (by host:port), the address guard on the
 * first URL and on every redirect, content conversion and the byte, output and time caps. Nothing
 * leaves the machine: "public" hosts are answered by an injected resolver and fetch.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createWebFetchTool, type WebFetchOptions } from "../../src/builtin/web-fetch.ts";
import type { HostLookup } from "../../src/builtin/web-fetch-guard.ts";
import { resultText } from "../../src/tool/result.ts";
import { makeWorkspace } from "./fixture.ts";

const requests: string[] = [];
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(request): Response | Promise<Response> {
    const url = new URL(request.url);
    requests.push(url.pathname);
    switch (url.pathname) {
      case "/page":
        return new Response(
          `<!doctype html><html><head><title>T</title><style>body{color:red}</style><script>alert("x")</script></head>` +
            `<body><h1>Hello</h1><p>See <a href="https://example.com/docs">the docs</a>.</p><ul><li>one</li><li>two</li></ul></body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        );
      case "/text":
        return new Response("plain text\nline two", { headers: { "content-type": "text/plain" } });
      case "/json":
        return Response.json({ ok: true, items: [1, 2] });
      case "/latin1":
        return new Response(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), { headers: { "content-type": "text/plain; charset=iso-8859-1" } });
      case "/image":
        return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), { headers: { "content-type": "image/png" } });
      case "/big":
        return new Response("x".repeat(1_000_000), { headers: { "content-type": "text/plain" } });
      case "/missing":
        return new Response("<h1>Not here</h1>", { status: 404, headers: { "content-type": "text/html" } });
      case "/hop1":
        return Response.redirect("/hop2", 302);
      case "/hop2":
        return new Response(null, { status: 301, headers: { location: `${base}/text` } });
      case "/loop":
        return Response.redirect("/loop", 307);
      case "/to-localhost":
        return Response.redirect(`http://localhost:${server.port}/text`, 302);
      case "/to-other-port":
        return Response.redirect(`http://127.0.0.1:${Number(server.port) + 1}/text`, 302);
      case "/to-mapped":
        return Response.redirect(`http://[::ffff:127.0.0.1]:${server.port}/text`, 302);
      case "/to-metadata":
        return Response.redirect("http://169.254.169.254/latest/meta-data/", 302);
      case "/slow":
        return new Promise<Response>(() => {});
      default:
        return new Response("no route", { status: 500 });
    }
  },
});
const base: string = `http://127.0.0.1:${server.port}`;
afterAll(() => server.stop(true));

/** Options that let the test server through by host and port, and nothing else on loopback. */
const allowed: WebFetchOptions = { allowHosts: [`127.0.0.1:${server.port}`] };

async function fetchWith(options: WebFetchOptions, input: Record<string, unknown>) {
  using workspace = makeWorkspace();
  // No proxy from the environment unless a test gives one: pinning is checked as on a direct line.
  const result = await workspace.call("WebFetch", input, { tools: [createWebFetchTool({ env: {}, ...options })] });
  return { text: resultText(result), isError: result.isError, structured: result.structuredContent };
}

describe("WebFetch: content", () => {
  test("HTML becomes Markdown without scripts or styles, under a header naming the URL", async () => {
    const { text, isError, structured } = await fetchWith(allowed, { url: `${base}/page`, prompt: "the list items" });
    expect(isError).toBe(false);
    expect(text).toBe(
      [
        `URL: ${base}/page`,
        "Status: 200 OK",
        "Content-Type: text/html; charset=utf-8",
        "Looking for: the list items",
        "",
        "# Hello",
        "",
        "See [the docs](https://example.com/docs).",
        "",
        "* one",
        "* two",
      ].join("\n"),
    );
    expect(structured).toEqual({ url: `${base}/page`, status: 200, contentType: "text/html; charset=utf-8", truncated: false });
  });

  test("plain text and JSON pass through; a named charset is honoured", async () => {
    expect((await fetchWith(allowed, { url: `${base}/text` })).text).toEndWith("\n\nplain text\nline two");
    expect((await fetchWith(allowed, { url: `${base}/json` })).text).toEndWith('\n\n{"ok":true,"items":[1,2]}');
    expect((await fetchWith(allowed, { url: `${base}/latin1` })).text).toEndWith("\n\ncafé");
  });

  test("binary content is refused, not dumped", async () => {
    const { text, isError } = await fetchWith(allowed, { url: `${base}/image` });
    expect(isError).toBe(true);
    expect(text).toEndWith("Not shown: the response is image/png, which WebFetch does not turn into text.");
  });

  test("bytes read and characters returned are both capped, with a note", async () => {
    const bytes = await fetchWith({ ...allowed, maxBytes: 1000 }, { url: `${base}/big` });
    expect(bytes.text).toEndWith(`\n\n${"x".repeat(1000)}\n[The response was cut after 1,000 bytes.]`);
    expect(bytes.structured?.truncated).toBe(true);
    const chars = await fetchWith({ ...allowed, maxOutputChars: 50 }, { url: `${base}/big` });
    expect(chars.text).toEndWith(`\n\n${"x".repeat(50)}\n[Content cut: showing 50 of 1,000,000 characters.]`);
  });

  test("an error status is an error result that still shows the page", async () => {
    const { text, isError } = await fetchWith(allowed, { url: `${base}/missing` });
    expect(isError).toBe(true);
    expect(text).toStartWith("The server answered 404.\n");
    expect(text).toEndWith("\n\n# Not here");
  });

  test("redirects are followed hop by hop, and the first URL is reported", async () => {
    const { text, isError } = await fetchWith(allowed, { url: `${base}/hop1` });
    expect(isError).toBe(false);
    expect(text).toStartWith(`URL: ${base}/text\nRedirected from: ${base}/hop1\nStatus: 200`);
  });

  test("redirect loops stop at the limit", async () => {
    expect(await fetchWith({ ...allowed, maxRedirects: 3 }, { url: `${base}/loop` })).toEqual({
      text: `Stopped after 3 redirects (last one to ${base}/loop).`,
      isError: true,
      structured: undefined,
    });
  });

  test("a server that never answers is stopped at the time cap", async () => {
    const { text, isError } = await fetchWith({ ...allowed, timeoutMs: 200 }, { url: `${base}/slow` });
    expect({ text, isError }).toEqual({ text: `Fetching ${base}/slow took longer than 0.2 s and was stopped.`, isError: true });
  });
});

describe("WebFetch: where it may connect", () => {
  test("loopback is refused by default, before any request is made", async () => {
    const before = requests.length;
    const { text, isError } = await fetchWith({}, { url: `${base}/text` });
    expect(isError).toBe(true);
    expect(text).toBe(
      `Refused to fetch ${base}/text: 127.0.0.1 is a loopback address. WebFetch only reaches public internet addresses ` +
        "unless the daemon's config allows this host (webFetch.allowHosts) or private addresses (webFetch.allowPrivateAddresses).",
    );
    expect(requests.length).toBe(before);
  });

  const refused: [url: string, why: string][] = [
    ["http://localhost/", "localhost resolves to"],
    ["http://10.1.2.3/", "10.1.2.3 is a private address"],
    ["http://192.168.0.10:8080/x", "192.168.0.10 is a private address"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"],
    ["http://[::1]/", "::1 is a loopback address"],
    ["http://[fe80::1]/", "fe80::1 is a link-local address"],
    ["http://[fd12::1]/", "fd12::1 is a unique-local (private) address"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1 is a loopback address inside an IPv6 address"],
    ["http://[::ffff:10.0.0.1]/", "::ffff:a00:1 is a private address inside an IPv6 address"],
    ["http://0x7f.0.0.1/", "127.0.0.1 is a loopback address"],
    ["http://2130706433/", "127.0.0.1 is a loopback address"],
    ["http://0.0.0.0/", "0.0.0.0 is a 'this network' address"],
  ];
  for (const [url, why] of refused) {
    test(`refuses ${url}`, async () => {
      const { text, isError } = await fetchWith({}, { url });
      expect(isError).toBe(true);
      expect(text).toContain(why);
    });
  }

  test("every resolved address is checked: one private answer among public ones refuses", async () => {
    const lookup: HostLookup = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "::ffff:192.168.1.1", family: 6 },
    ];
    const fetch = async () => {
      throw new Error("must not be called");
    };
    const { text } = await fetchWith({ lookup, fetch }, { url: "https://mixed.example/" });
    expect(text).toStartWith("Refused to fetch https://mixed.example/: mixed.example resolves to ::ffff:192.168.1.1, a private address inside an IPv6 address.");
  });

  test("a host that resolves only to public addresses is fetched at a checked address, under its own name", async () => {
    const lookup: HostLookup = async () => [{ address: "2606:4700::6810:84e5", family: 6 }, { address: "93.184.216.34", family: 4 }];
    const seen: { url: string; host: unknown; serverName: unknown }[] = [];
    const fetch = async (url: URL, init: BunFetchRequestInit) => {
      seen.push({ url: url.href, host: (init.headers as Record<string, string>).host, serverName: init.tls?.serverName });
      return new Response("public page", { headers: { "content-type": "text/plain" } });
    };
    const { text, isError } = await fetchWith({ lookup, fetch }, { url: "https://public.example/a?q=1" });
    expect({ isError, seen, head: text.split("\n")[0], tail: text.split("\n").at(-1) }).toEqual({
      isError: false,
      seen: [{ url: "https://93.184.216.34/a?q=1", host: "public.example", serverName: "public.example" }],
      head: "URL: https://public.example/a?q=1",
      tail: "public page",
    });
  });

  test("DNS rebinding: a resolver that answers a private address the second time never gets asked again", async () => {
    let lookups = 0;
    const lookup: HostLookup = async () => (lookups++ === 0 ? [{ address: "93.184.216.34", family: 4 }] : [{ address: "127.0.0.1", family: 4 }]);
    const seen: string[] = [];
    const fetch = async (url: URL) => {
      seen.push(url.href);
      return new Response("public page", { headers: { "content-type": "text/plain" } });
    };
    const { isError } = await fetchWith({ lookup, fetch }, { url: "http://rebind.example:8080/x" });
    expect({ isError, lookups, seen }).toEqual({ isError: false, lookups: 1, seen: ["http://93.184.216.34:8080/x"] });
  });

  test("with a proxy in the environment the request goes by name (the proxy connects), after the same check", async () => {
    const lookup: HostLookup = async () => [{ address: "93.184.216.34", family: 4 }];
    const seen: { url: string; host: unknown }[] = [];
    const fetch = async (url: URL, init: BunFetchRequestInit) => {
      seen.push({ url: url.href, host: (init.headers as Record<string, string>).host });
      return new Response("via proxy", { headers: { "content-type": "text/plain" } });
    };
    const env = { HTTPS_PROXY: "http://proxy.internal:3128" };
    expect((await fetchWith({ lookup, fetch, env }, { url: "https://public.example/a" })).isError).toBe(false);
    expect((await fetchWith({ lookup, fetch, env }, { url: "http://public.example/b" })).isError).toBe(false);
    expect(seen).toEqual([
      { url: "https://public.example/a", host: undefined },
      { url: "http://93.184.216.34/b", host: "public.example" },
    ]);
    const privateLookup: HostLookup = async () => [{ address: "10.1.2.3", family: 4 }];
    expect((await fetchWith({ lookup: privateLookup, fetch, env }, { url: "https://intranet.example/" })).text).toContain("10.1.2.3, a private address");
  });

  test("a checked address that does not answer: the next one is tried; when none answers the error says so", async () => {
    const lookup: HostLookup = async () => [{ address: "2606:4700::6810:84e5", family: 6 }, { address: "93.184.216.34", family: 4 }];
    const tried: string[] = [];
    const fetchFirstFails = async (url: URL) => {
      tried.push(url.hostname);
      if (tried.length === 1) throw new Error("connect ECONNREFUSED");
      return new Response("second address", { headers: { "content-type": "text/plain" } });
    };
    const ok = await fetchWith({ lookup, fetch: fetchFirstFails }, { url: "http://two.example/" });
    expect({ isError: ok.isError, tried, tail: ok.text.split("\n").at(-1) }).toEqual({
      isError: false,
      tried: ["93.184.216.34", "[2606:4700::6810:84e5]"],
      tail: "second address",
    });
    const down = await fetchWith({ lookup, fetch: async () => Promise.reject(new Error("connect ECONNREFUSED")) }, { url: "http://two.example/" });
    expect(down).toMatchObject({ isError: true, text: "Could not fetch http://two.example/: connect ECONNREFUSED" });
  });

  const redirects: [path: string, why: string][] = [
    ["/to-localhost", "localhost resolves to"],
    ["/to-other-port", "127.0.0.1 is a loopback address"],
    ["/to-mapped", "::ffff:7f00:1 is a loopback address inside an IPv6 address"],
    ["/to-metadata", "169.254.169.254 is a link-local address"],
  ];
  for (const [path, why] of redirects) {
    test(`a redirect (${path}) is checked like a first URL and refused`, async () => {
      const before = requests.length;
      const { text, isError } = await fetchWith(allowed, { url: `${base}${path}` });
      expect(isError).toBe(true);
      expect(text).toContain(why);
      expect(text).toEndWith(`(reached by a redirect from ${base}${path})`);
      expect(requests.slice(before)).toEqual([path]);
    });
  }

  test("allowPrivateAddresses opens every address", async () => {
    expect((await fetchWith({ allowPrivateAddresses: true }, { url: `${base}/to-localhost` })).isError).toBe(false);
  });

  test("allowHosts matches a host, a host and port, or *.domain", async () => {
    expect((await fetchWith({ allowHosts: ["127.0.0.1"] }, { url: `${base}/text` })).isError).toBe(false);
    expect((await fetchWith({ allowHosts: [`127.0.0.1:${Number(server.port) + 1}`] }, { url: `${base}/text` })).isError).toBe(true);
    const lookup: HostLookup = async () => [{ address: "10.0.0.7", family: 4 }];
    const fetch = async () => new Response("intranet", { headers: { "content-type": "text/plain" } });
    expect((await fetchWith({ allowHosts: ["*.corp.example"], lookup, fetch }, { url: "http://wiki.corp.example/" })).isError).toBe(false);
    expect((await fetchWith({ allowHosts: ["*.corp.example"], lookup, fetch }, { url: "http://corp.example.evil/" })).isError).toBe(true);
  });

  test("only http and https, no credentials, and a real URL", async () => {
    expect((await fetchWith(allowed, { url: "file:///etc/passwd" })).text).toBe("file URLs are not fetched; give an http or https URL.");
    expect((await fetchWith(allowed, { url: `http://user:pw@127.0.0.1:${server.port}/text` })).text).toBe(
      "URLs with a user name or password in them are not fetched.",
    );
    expect((await fetchWith(allowed, { url: "not a url" })).text).toBe('"not a url" is not a valid URL; give a full URL such as https://example.com/page.');
  });

  test("is deferred, read-only, and matched by domain in permission rules", () => {
    const tool = createWebFetchTool();
    expect({
      deferred: tool.shouldDefer,
      readOnly: tool.isReadOnly({}),
      subject: tool.permissionSubject({ url: "https://docs.example.com/x" }, "/"),
    }).toEqual({ deferred: true, readOnly: true, subject: "domain:docs.example.com" });
  });
});
