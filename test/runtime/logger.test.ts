/** The logger: JSON lines by default, the text formatter for a person, level pinning, format choice. */
import { describe, expect, test } from "bun:test";
import { chooseLogFormat, createLogger } from "../../src/runtime/logger.ts";
import { formatTextLine } from "../../src/runtime/log-text.ts";

// Local components: the text line shows local time, so the expectation holds in any time zone.
const at = new Date(2026, 11, 1, 9, 5, 7, 42);

function capture(level: "debug" | "info" | "warn" | "error", options: Parameters<typeof createLogger>[2] = {}) {
  const lines: string[] = [];
  const logger = createLogger(level, (line) => lines.push(line), { now: () => at, ...options });
  return { logger, lines };
}

describe("text log lines", () => {
  test("one line: local time, level, message, key=value fields (strings quoted only when needed)", () => {
    const { logger, lines } = capture("info", { format: "text" });
    logger.warn("call refused", { session: "s-1", tool: "Bash", reason: "Permission denied: rm -rf", count: 3, ok: false, list: ["a", "b"], missing: undefined, empty: "" });
    expect(lines).toEqual(['09:05:07.042 WARN  call refused session=s-1 tool=Bash reason="Permission denied: rm -rf" count=3 ok=false list=["a","b"] empty=""\n']);
  });

  test("control characters in messages, keys and values are escaped: no forged lines, no terminal escapes", () => {
    const line = formatTextLine(at, "error", "boom\nFAKE 00:00:00.000 INFO  forged", { "k\u001b": "\u001b[31mred\u001b[0m", stderr: "a\r\nb\u009bc", tab: "x\ty" });
    expect(line).toBe('09:05:07.042 ERROR boom\\nFAKE 00:00:00.000 INFO  forged k\\u001b=\\u001b[31mred\\u001b[0m stderr=a\\r\\nb\\u009bc tab=x\\ty\n');
    expect(line.split("\n")).toHaveLength(2);
  });

  test("a quote inside a quoted value is escaped; a long value is cut with its length named", () => {
    expect(formatTextLine(at, "info", "m", { said: 'he said "hi"' })).toBe('09:05:07.042 INFO  m said="he said \\"hi\\""\n');
    const long = formatTextLine(at, "info", "m", { blob: "x".repeat(1000) });
    expect(long).toBe(`09:05:07.042 INFO  m blob="${"x".repeat(400)}… (1000 chars)"\n`);
  });

  test("errors show their message; colour wraps only the level", () => {
    expect(formatTextLine(at, "info", "m", { error: new Error("bad thing") })).toBe('09:05:07.042 INFO  m error=bad thing\n');
    expect(formatTextLine(at, "warn", "m", undefined, { color: true })).toBe("09:05:07.042 \u001b[33mWARN \u001b[0m m\n");
  });
});

describe("the logger", () => {
  test("JSON lines by default, unchanged", () => {
    const { logger, lines } = capture("info");
    logger.info("listening", { socket: "/s" });
    expect(lines.map((line) => JSON.parse(line))).toEqual([{ time: at.toISOString(), level: "info", message: "listening", socket: "/s" }]);
  });

  test("the level threshold; a pinned level (--log-level) survives setLevel (a config reload)", () => {
    const free = capture("warn");
    free.logger.info("dropped");
    free.logger.setLevel("debug");
    free.logger.debug("kept");
    expect(free.lines.map((line) => JSON.parse(line).message)).toEqual(["kept"]);
    const pinned = capture("error", { pinned: true });
    pinned.logger.setLevel("debug");
    pinned.logger.warn("still dropped");
    pinned.logger.error("kept");
    expect(pinned.lines.map((line) => JSON.parse(line).message)).toEqual(["kept"]);
  });

  test("format choice: the flag wins; otherwise text on a terminal, JSON elsewhere", () => {
    expect([chooseLogFormat(undefined, true), chooseLogFormat(undefined, false), chooseLogFormat("json", true), chooseLogFormat("text", false)]).toEqual(["text", "json", "json", "text"]);
  });
});
