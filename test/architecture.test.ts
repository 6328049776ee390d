/**
 * The layout's rules, checked by scanning src/: which rooms may import which, no import circle, and
 * no module-level mutable state. Each rule is also run against a small bad example, so a scanner that
 * stopped seeing anything would fail here too.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = join(import.meta.dir, "..", "src");
/** Parts that must stay pure: they may not reach the rooms above them, or I/O modules. */
const PURE = ["tool", "protocol", "deferral", "assembly", "permissions", "pool", "search", "explain", "pipeline"];
const IO_MODULES = /^(node:(fs|net|child_process|http|https|dgram)|fs|net|child_process|bun:sqlite)(\/|$)/;

/** Room → the rooms of src/ it must never import (besides its own). */
const FORBIDDEN: Record<string, readonly string[]> = {
  // The bottom: shared seams (logger, errors) and the wire vocabulary import nothing of the domain.
  runtime: ["*"],
  protocol: ["*"],
  tool: ["daemon", "cli", "mcp", "session", "core", "bridge", "client", "builtin", "config", "pipeline"],
  // The one call pipeline: resolve → enabled → validate → permissions → schedule → call → cap.
  pipeline: ["daemon", "cli", "mcp", "session", "core", "bridge", "client", "builtin", "config"],
  deferral: ["daemon", "cli", "mcp", "session", "core", "bridge", "client"],
  assembly: ["daemon", "cli", "mcp", "session", "core", "bridge", "client"],
  permissions: ["daemon", "cli", "mcp", "session", "core", "bridge", "client", "builtin", "config", "pipeline"],
  pool: ["daemon", "cli", "mcp", "session", "core", "bridge", "client"],
  search: ["daemon", "cli", "mcp", "session", "core", "bridge", "client", "builtin"],
  session: ["daemon", "cli", "core", "bridge", "client", "mcp"],
  explain: ["daemon", "cli", "mcp", "session", "core", "bridge", "client"],
  telemetry: ["daemon", "cli", "core", "bridge", "client", "session"],
  mcp: ["daemon", "cli", "core", "bridge", "client", "session"],
  flags: ["daemon", "cli", "core", "bridge", "client", "mcp"],
  // The core is transport-agnostic: no socket layer, no command line, no bridge.
  core: ["daemon", "cli", "bridge", "client"],
  daemon: ["cli", "bridge", "client"],
  client: ["daemon", "core", "cli", "bridge", "mcp", "session"],
  bridge: ["daemon", "core", "cli"],
};
/** Rooms allowed to import anything below them; "*" in FORBIDDEN allows only these for protocol. */
const PROTOCOL_MAY_IMPORT = ["protocol"];
const RUNTIME_MAY_IMPORT = ["runtime"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:import|export)[^"';]*?from\s+["']([^"']+)["']|require\(["']([^"']+)["']\)|import\(["']([^"']+)["']\)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? "",
  );
}

function roomOf(path: string): string {
  const rel = relative(SRC, path);
  return rel.includes("/") ? rel.split("/")[0]! : "";
}

function layerOffenders(sources: Map<string, string>): string[] {
  const offenders: string[] = [];
  for (const [file, text] of sources) {
    const room = roomOf(file);
    const forbidden = FORBIDDEN[room];
    for (const target of importsOf(text)) {
      if (PURE.includes(room) && IO_MODULES.test(target)) offenders.push(`${relative(SRC, file)} → ${target} (I/O in a pure room)`);
      if (!target.startsWith(".")) continue;
      const resolved = resolve(dirname(file), target);
      if (!resolved.startsWith(SRC)) continue;
      const targetRoom = roomOf(resolved);
      if (targetRoom === room || !forbidden) continue;
      const allowed = room === "protocol" ? PROTOCOL_MAY_IMPORT : room === "runtime" ? RUNTIME_MAY_IMPORT : undefined;
      const bad = forbidden.includes("*") ? !allowed?.includes(targetRoom) : forbidden.includes(targetRoom);
      if (bad) offenders.push(`${relative(SRC, file)} → ${target}`);
    }
  }
  return offenders.sort();
}

function cycles(sources: Map<string, string>): string[][] {
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const targets = importsOf(text)
      .filter((target) => target.startsWith("."))
      .map((target) => resolve(dirname(file), target))
      .filter((target) => sources.has(target));
    graph.set(file, targets);
  }
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push(stack.slice(stack.indexOf(next)).map((path) => relative(SRC, path)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

/**
 * Module-level mutable state: a top-level `let`/`var`, a top-level WeakMap/WeakSet (a side table),
 * or a top-level Map/Set/array not typed read-only. Constant tables are fine when the type says so.
 */
function mutableState(sources: Map<string, string>): string[] {
  const offenders: string[] = [];
  const patterns = [
    /^(?:export )?(?:let|var) (\w+)/gm,
    /^(?:export )?const (\w+)(?:: [^=]+)? = new (?:WeakMap|WeakSet)\b/gm,
    /^(?:export )?const (\w+) = new (?:Map|Set|Array)\b/gm,
    /^(?:export )?const (\w+)(?:: (?!Readonly)[^=]+)? = new (?:Map|Set)\b/gm,
    /^(?:export )?const (\w+)(?:: [^=]*\[\][^=]*)? = \[\];?$/gm,
  ];
  for (const [file, text] of sources) {
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) offenders.push(`${relative(SRC, file)}: ${match[1]}`);
  }
  return [...new Set(offenders)].sort();
}

const sources = new Map(files(SRC).map((file) => [file, readFileSync(file, "utf8")] as const));

/** The rooms of src/ a room's files import (its own excluded); a file at src/'s top counts as its name. */
function roomsImported(sources: Map<string, string>, room: string): string[] {
  const rooms = new Set<string>();
  for (const [file, text] of sources) {
    if (roomOf(file) !== room) continue;
    for (const target of importsOf(text)) {
      if (!target.startsWith(".")) continue;
      const resolved = resolve(dirname(file), target);
      if (!resolved.startsWith(SRC)) continue;
      const targetRoom = roomOf(resolved) || relative(SRC, resolved);
      if (targetRoom !== room) rooms.add(targetRoom);
    }
  }
  return [...rooms].sort();
}

/**
 * daemon/ is the wire: what a request is about is the core's, so the daemon reaches the core, the
 * protocol, the seams below, and the few rooms its own jobs need (the config it reloads, the cron
 * firings it delivers, the MCP process registry it reaps with, the session a connection binds).
 */
const DAEMON_MAY_IMPORT = ["build-info.ts", "config", "core", "cron", "mcp", "protocol", "runtime", "sandbox", "session"];

describe("dependency direction", () => {
  test("no room imports a room above it, and the pure rooms import no I/O", () => {
    expect(layerOffenders(sources)).toEqual([]);
  });

  test("the checker sees a wrong-way import", () => {
    const bad = new Map([
      [join(SRC, "core", "bad.ts"), 'import { Daemon } from "../daemon/daemon.ts";'],
      [join(SRC, "protocol", "bad.ts"), 'import { parseRule } from "../permissions/rules.ts";'],
      [join(SRC, "tool", "bad.ts"), 'import { readFileSync } from "node:fs";'],
    ]);
    expect(layerOffenders(bad)).toEqual([
      "core/bad.ts → ../daemon/daemon.ts",
      "protocol/bad.ts → ../permissions/rules.ts",
      "tool/bad.ts → node:fs (I/O in a pure room)",
    ]);
  });
});

describe("daemon/ keeps to the wire", () => {
  test("it imports at most 8 of src/'s folders, these", () => {
    const imported = roomsImported(sources, "daemon");
    expect(imported.filter((room) => !room.endsWith(".ts")).length).toBeLessThanOrEqual(8);
    expect(imported.filter((room) => !DAEMON_MAY_IMPORT.includes(room))).toEqual([]);
  });

  test("the checker sees a handler that reaches past the core", () => {
    const bad = new Map([[join(SRC, "daemon", "handlers", "bad.ts"), 'import { isDeferredTool } from "../../deferral/is-deferred.ts";\nimport { Method } from "../../protocol/method-names.ts";']]);
    expect(roomsImported(bad, "daemon")).toEqual(["deferral", "protocol"]);
  });
});

/** One concept per file: a file past this is split by job. */
const MAX_FILE_LINES = 400;

describe("file size", () => {
  test(`no file in src/ is over ${MAX_FILE_LINES} lines`, () => {
    const long = [...sources].filter(([, text]) => text.split("\n").length - 1 > MAX_FILE_LINES).map(([file]) => relative(SRC, file));
    expect(long.sort()).toEqual([]);
  });
});

describe("no import circle", () => {
  test("src/ has none", () => {
    expect(cycles(sources)).toEqual([]);
  });

  test("the checker sees one", () => {
    const a = join(SRC, "x", "a.ts");
    const b = join(SRC, "x", "b.ts");
    const found = cycles(new Map([[a, 'import { b } from "./b.ts";'], [b, 'import type { a } from "./a.ts";']]));
    expect(found).toEqual([["x/a.ts", "x/b.ts"]]);
  });
});

describe("no module-level mutable state", () => {
  test("src/ has none: state lives in objects that are passed in", () => {
    expect(mutableState(sources)).toEqual([]);
  });

  test("the checker sees each form", () => {
    const bad = new Map([
      [
        join(SRC, "x", "bad.ts"),
        [
          "let counter = 0;",
          "const cache = new WeakMap<object, string>();",
          "const seen = new Set<string>();",
          "const byName: Map<string, number> = new Map();",
          "const queue: string[] = [];",
          'const fine: ReadonlySet<string> = new Set(["a"]);',
        ].join("\n"),
      ],
    ]);
    expect(mutableState(bad)).toEqual(["x/bad.ts: byName", "x/bad.ts: cache", "x/bad.ts: counter", "x/bad.ts: queue", "x/bad.ts: seen"]);
  });
});
