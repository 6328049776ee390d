/**
 * The two WebAssembly files of the Bash parser, as paths. Imported as files so `bun build --compile`
 * embeds them in the binary (the paths then point inside it); imported only by
 * bash-grammar-module.ts, which shell-parser.ts loads lazily, so a daemon that never checks a Bash
 * rule never reads them.
 */
import runtimeWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import bashWasm from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" };

export const RUNTIME_WASM_PATH: string = runtimeWasm;
export const BASH_GRAMMAR_WASM_PATH: string = bashWasm;
