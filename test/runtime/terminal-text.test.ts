import { describe, expect, test } from "bun:test";
import { escapeTerminal } from "../../src/runtime/terminal-text.ts";
import { formatServers, formatTools } from "../../src/cli/format.ts";

describe("escapeTerminal", () => {
  test("ESC, C1 controls, DEL, bidi overrides and isolates, invisible marks: each shown as a visible escape", () => {
    const hostile = "a\u001b]0;pwned\u0007b\u009b2Jc\u007fd\u202eevil\u202ce\u2066f\u2069g\u200bh\u2028i\ufeffj";
    expect(escapeTerminal(hostile)).toBe("a\\u001b]0;pwned\\u0007b\\u009b2Jc\\u007fd\\u202eevil\\u202ce\\u2066f\\u2069g\\u200bh\\u2028i\\ufeffj");
  });

  test("a field cannot forge a line; a whole output keeps its lines and tabs", () => {
    expect(escapeTerminal("x\nFORGED\r\ty")).toBe("x\\nFORGED\\r\\ty");
    expect(escapeTerminal("x\nnext\r\ty\u001b[2J", { keepLines: true })).toBe("x\nnext\\r\ty\\u001b[2J");
  });

  test("plain text, accents and emoji pass unchanged; an escaped JSON output parses to the same value", () => {
    expect(escapeTerminal("naïve — 日本 🙂 ok")).toBe("naïve — 日本 🙂 ok");
    const value = { name: "srv\u009b\u202e\u2066x", reason: "line\nbreak\u001b" };
    const printed = escapeTerminal(JSON.stringify(value, null, 2), { keepLines: true });
    expect(printed).not.toMatch(/[\u001b\u009b\u202e\u2066]/);
    expect(JSON.parse(printed)).toEqual(value);
  });
});

describe("the CLI's printers escape what servers send", () => {
  test("servers: a hostile name and reason print escaped, on their own lines", () => {
    const text = formatServers([
      { name: "evil\u001b[2J", state: "failed", transport: "stdio", startup: "eager", toolCount: 0, stale: false, restarts: 0, inFlight: 0, changedTools: ["t\u202e"], reason: "boom\nFAKE ok\u009b" } as never,
    ]);
    expect(text).toBe(
      ["evil\\u001b[2J  failed     0 tools, stdio", "               boom\\nFAKE ok\\u009b", "               changed since first seen: t\\u202e"].join("\n"),
    );
  });

  test("tools: a hostile name, server and description print escaped", () => {
    const text = formatTools({
      tools: [{ name: "mcp__s__x\u001b[31m", server: "s\u202e", source: "mcp", deferred: true, readOnly: false, description: "Does \u001b]0;x\u0007 things. More." } as never],
      collisions: [],
    } as never);
    expect(text).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(text).toContain("mcp__s__x\\u001b[31m");
    expect(text).toContain("mcp:s\\u202e");
    expect(text).toContain("Does \\u001b]0;x\\u0007 things.");
  });
});
