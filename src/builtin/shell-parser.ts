/**
 * Bash commands read through a real grammar: tree-sitter-bash, run by web-tree-sitter as
 * WebAssembly (pure WASM shipped inside the npm packages; nothing downloaded or compiled at install).
 * The parser is loaded on the first Bash permission check, so a daemon's cold start does not pay
 * for it, and kept by its owner (the Bash tool) after that.
 *
 * Each tree lives in WebAssembly memory until deleted: every tree made for one command, the nested
 * `bash -c` scripts' too, is deleted when the reading is done.
 */
import type { Parser, Tree } from "web-tree-sitter";
import { readShellFacts, type ShellFacts } from "../permissions/shell-facts.ts";
import { requireEmbedded } from "../runtime/embedded-module.ts";

/** Longer commands are not read (and so not allowed by any rule that needs the reading). */
export const MAX_SHELL_COMMAND_CHARS = 64 * 1024;
/**
 * Parsing runs on the thread that serves every client, so it runs in slices of PARSE_SLICE_MS with
 * the thread handed back between them (tree-sitter resumes a parse its progress callback stopped),
 * up to PARSE_BUDGET_MS in all (a 64 KiB command of plain words parses in ~60-190 ms under load).
 * A script inside the command (`bash -c '…'`, `eval`) is parsed during the walk, at once, within
 * NESTED_PARSE_BUDGET_MS; the walk itself stops at READ_BUDGET_MS. A command cut off is opaque,
 * which no rule allows and every deny rule refuses.
 */
const PARSE_SLICE_MS = 4;
const PARSE_BUDGET_MS = 2_000;
const NESTED_PARSE_BUDGET_MS = 20;
const READ_BUDGET_MS = 15;

export class ShellParser {
  #loading: Promise<Parser> | undefined;
  /** One parse at a time: a sliced parse is resumed state inside the one parser. */
  #queue: Promise<unknown> = Promise.resolve();

  /** `load` makes the parser; tests pass one that fails. */
  constructor(private readonly load: () => Promise<Parser> = loadBashParser) {}

  /** What the command runs and touches, read from its parse; opaque when it cannot be read. */
  read(command: string, cwd: string): Promise<ShellFacts> {
    const turn = this.#queue.then(() => this.#read(command, cwd));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  async #read(command: string, cwd: string): Promise<ShellFacts> {
    if (command.length > MAX_SHELL_COMMAND_CHARS) return opaque(`a command longer than ${MAX_SHELL_COMMAND_CHARS} characters`);
    let parser: Parser;
    try {
      parser = await this.#load();
    } catch (error) {
      // Not kept: the next check tries again, and until one succeeds no rule can see inside a command.
      this.#loading = undefined;
      return opaque(`a command the shell parser could not read (it failed to load: ${(error as Error).message})`);
    }
    const trees: Tree[] = [];
    const parse = (text: string) => {
      if (text.length > MAX_SHELL_COMMAND_CHARS) return undefined;
      const started = performance.now();
      const tree = parser.parse(chunks(text), null, { progressCallback: () => performance.now() - started > NESTED_PARSE_BUDGET_MS });
      if (!tree) {
        // A stopped parse would be resumed by the next call, whatever its text.
        parser.reset();
        return undefined;
      }
      trees.push(tree);
      return tree.rootNode;
    };
    try {
      const tree = await parseInSlices(parser, command);
      if (!tree) return opaque(`a command that took more than ${PARSE_BUDGET_MS} ms to parse`);
      trees.push(tree);
      const readUntil = performance.now() + READ_BUDGET_MS;
      return readShellFacts(tree.rootNode, { cwd, parse, expired: () => performance.now() > readUntil });
    } catch (error) {
      // A fault in the reader must not become a pass: the command is opaque.
      parser.reset();
      return opaque(`a command the checker failed on (${(error as Error).message})`);
    } finally {
      for (const tree of trees) tree.delete();
    }
  }

  #load(): Promise<Parser> {
    this.#loading ??= this.load();
    return this.#loading;
  }
}

/**
 * The text handed to the parser in pieces: given the string itself, web-tree-sitter copies the rest
 * of it at every read (`text.slice(index)`), quadratic in the length — 281 ms for 64 KiB of words
 * against 15 ms in pieces; every `node.text` reads through the same callback, so pieces stay small.
 */
function chunks(text: string): (index: number) => string {
  return (index) => text.slice(index, index + 1024);
}

async function parseInSlices(parser: Parser, text: string): Promise<Tree | undefined> {
  const started = performance.now();
  for (;;) {
    const slice = performance.now();
    const tree = parser.parse(chunks(text), null, { progressCallback: () => performance.now() - slice > PARSE_SLICE_MS });
    if (tree) return tree;
    if (performance.now() - started > PARSE_BUDGET_MS) {
      parser.reset();
      return undefined;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

async function loadBashParser(): Promise<Parser> {
  const { Parser, Language, RUNTIME_WASM_PATH, BASH_GRAMMAR_WASM_PATH } = requireEmbedded<typeof import("./bash-grammar-module.ts")>("builtin/bash-grammar-module");
  await Parser.init({ wasmBinary: await Bun.file(RUNTIME_WASM_PATH).bytes() });
  const bash = await Language.load(await Bun.file(BASH_GRAMMAR_WASM_PATH).bytes());
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}

function opaque(reason: string): ShellFacts {
  return { commands: [], reads: [], writes: [], opaque: reason };
}
