import { describe, expect, test } from "bun:test";
import { runCli } from "../../src/cli/main.ts";
import { COMMAND_USAGE, commandOf, misplacedOptions } from "../../src/cli/usage.ts";

describe("per-command usage", () => {
  test("the command is the first word that is neither an option nor an option's value", () => {
    const valued = new Set(["socket", "config"]);
    expect(commandOf(["--socket", "serve", "status", "--bogus"], valued)).toBe("status");
    expect(commandOf(["--socket=/x", "tools"], valued)).toBe("tools");
    expect(commandOf(["--json", "--", "call"], valued)).toBe("call");
    expect(commandOf(["--json"], valued)).toBeUndefined();
  });

  test("an option of another command is named; options this table does not know are left alone", () => {
    const known = new Set(["max", "json", "socket", "demo"]);
    expect(misplacedOptions("status", ["max", "json", "help"], known)).toEqual(["max"]);
    expect(misplacedOptions("status", ["some-new-option"], known)).toEqual([]);
    expect(misplacedOptions("not-in-table", ["max"], known)).toEqual([]);
  });

  test("every command's usage starts with its own name, and lists only options it reads", () => {
    for (const [name, entry] of Object.entries(COMMAND_USAGE)) {
      expect(entry.usage.startsWith(`usage: toolpool ${name}`)).toBe(true);
      for (const option of entry.options) expect({ name, option, listed: entry.usage.includes(`--${option}`) }).toEqual({ name, option, listed: true });
    }
  });

  test("runCli: --help returns before the command runs; toolpool help COMMAND prints the same", async () => {
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      expect(await runCli(["stop", "--help", "--socket", "/nonexistent/x.sock"])).toBe(0);
      expect(await runCli(["help", "stop"])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    expect(out).toEqual([`${COMMAND_USAGE.stop!.usage}\n`, `${COMMAND_USAGE.stop!.usage}\n`]);
  });

  test("status --watch --json is refused: the live view has no JSON form", async () => {
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => errors.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      expect(await runCli(["status", "--watch", "--json"])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(errors).toEqual(["toolpool: --watch is a live view for a terminal; for scripts, run status --json (one snapshot) repeatedly\n"]);
  });

  test("an unknown command gets the nearest command", async () => {
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => errors.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      expect(await runCli(["stauts"])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    // The suggestion and one line, not the whole command list.
    expect(errors).toEqual(['toolpool: unknown command "stauts" (did you mean "status"?); `toolpool help` lists the commands\n']);
  });
});

test("--help wins where an option would take it as its value (mcp --http --help) and runs nothing", async () => {
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    expect(await runCli(["mcp", "--http", "--help"])).toBe(0);
    expect(await runCli(["serve", "--socket", "-h"])).toBe(0);
  } finally {
    process.stdout.write = write;
  }
  expect(out.join("")).toContain("usage: toolpool mcp");
  expect(out.join("")).toContain("usage: toolpool serve");
});
