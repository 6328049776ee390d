/**
 * File types for Grep's `type` filter, named as ripgrep names them (`rg --type-list`), so a model
 * that learned `type: "py"` or `type: "rust"` from ripgrep gets what it expects. A few spelled-out
 * aliases ("python", "typescript") are accepted too.
 */
import { extname } from "node:path";

const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  c: ["c", "h"],
  cpp: ["cpp", "cc", "cxx", "c++", "hpp", "hh", "hxx", "h"],
  cs: ["cs"],
  css: ["css", "scss", "sass", "less"],
  go: ["go"],
  html: ["html", "htm", "xhtml"],
  java: ["java"],
  js: ["js", "mjs", "cjs", "jsx"],
  json: ["json", "jsonc", "json5"],
  kotlin: ["kt", "kts"],
  lua: ["lua"],
  md: ["md", "markdown", "mdx"],
  php: ["php"],
  py: ["py", "pyi"],
  ruby: ["rb", "gemspec", "rake"],
  rust: ["rs"],
  sh: ["sh", "bash", "zsh"],
  sql: ["sql"],
  swift: ["swift"],
  toml: ["toml"],
  ts: ["ts", "tsx", "mts", "cts"],
  txt: ["txt"],
  xml: ["xml", "xsd", "xsl"],
  yaml: ["yaml", "yml"],
};

const ALIASES: Readonly<Record<string, string>> = {
  python: "py",
  javascript: "js",
  typescript: "ts",
  rs: "rust",
  rb: "ruby",
  markdown: "md",
  yml: "yaml",
  csharp: "cs",
  shell: "sh",
  bash: "sh",
};

export function knownFileTypes(): string[] {
  return Object.keys(EXTENSIONS);
}

/** The extensions of a type name, or undefined when the name is unknown. */
export function extensionsOfType(type: string): ReadonlySet<string> | undefined {
  const key = type.toLowerCase();
  const extensions = EXTENSIONS[ALIASES[key] ?? key];
  return extensions ? new Set(extensions) : undefined;
}

export function hasExtension(path: string, extensions: ReadonlySet<string>): boolean {
  return extensions.has(extname(path).slice(1).toLowerCase());
}
