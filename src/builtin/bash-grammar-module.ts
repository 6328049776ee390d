/**
 * The Bash grammar: web-tree-sitter and its two WebAssembly files, embedded beside the main bundle
 * (see runtime/embedded-module.ts); only shell-parser.ts loads it, on the first Bash permission check.
 */
export { Parser, Language } from "web-tree-sitter";
export { RUNTIME_WASM_PATH, BASH_GRAMMAR_WASM_PATH } from "./shell-grammar-files.ts";
