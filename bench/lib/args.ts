/** `--name value` and bare `--flag` arguments; unknown names are refused so typos surface. */
export function parseArgs(argv: readonly string[], known: Record<string, "value" | "flag">): Map<string, string> {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) throw new Error(`unexpected argument: ${arg}`);
    const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
    const kind = known[name];
    if (kind === undefined) throw new Error(`unknown option --${name}; known: ${Object.keys(known).join(", ")}`);
    if (kind === "flag") {
      values.set(name, "true");
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    values.set(name, value);
  }
  return values;
}
