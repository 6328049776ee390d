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
 * Parsing and reading run on the thread that serves every client, so each is cut off after this
 * long (a 64 KiB command of plain words parses in ~60 ms once warm, 3,000 nested `$(` in ~700 ms):
 * a command cut off is opaque, which no rule allows and every deny rule refuses.
 */
const PARSE_BUDGET_MS = 50;
const READ_BUDGET_MS = 50;

export class ShellParser {
  #loading: Promise<Parser> | undefined;

  /** `load` makes the parser; tests pass one that fails. */
  constructor(private readonly load: () => Promise<Parser> = loadBashParser) {}

  /** What the command runs and touches, read from its parse; opaque when it cannot be read. */
  async read(command: string, cwd: string): Promise<ShellFacts> {
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
      const tree = parser.parse(text, null, { progressCallback: () => performance.now() - started > PARSE_BUDGET_MS });
      if (!tree) return undefined;
      trees.push(tree);
      return tree.rootNode;
    };
    try {
      const root = parse(command);
      if (!root) return opaque(`a command that took more than ${PARSE_BUDGET_MS} ms to parse`);
      const readUntil = performance.now() + READ_BUDGET_MS;
      return readShellFacts(root, { cwd, parse, expired: () => performance.now() > readUntil });
    } catch (error) {
      // A fault in the reader must not become a pass: the command is opaque.
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
