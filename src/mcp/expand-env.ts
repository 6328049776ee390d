/**
 * `${VAR}` and `${VAR:-default}` in server configs, the `.mcp.json` convention. An unset variable
 * with no default is an error naming the server, the field and the variable: a server started with
 * an empty token fails later and far less clearly.
 */
import { ConfigError } from "../config/load.ts";

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface ExpansionSite {
  server: string;
  /** Dotted field name as the user wrote it, e.g. `args.2` or `headers.Authorization`. */
  field: string;
}

/** Expands every reference in `text`; `${VAR:-}` (empty default) is allowed and yields "". */
export function expandText(text: string, env: NodeJS.ProcessEnv, site: ExpansionSite): string {
  checkReferences(text, site);
  return text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    if (value === "") return "";
    throw new ConfigError(
      `MCP server "${site.server}": field "${site.field}" uses \${${name}}, but ${name} is not set and has no default (write \${${name}:-default} to give one)`,
    );
  });
}

/**
 * A `${` that no reference accounts for (`${TOKEN` unclosed, `${1X}`, `${}`) is refused: passed
 * through literally, the server would get the text `${TOKEN` as its token.
 */
function checkReferences(text: string, site: ExpansionSite): void {
  const rest = text.replace(REFERENCE, "");
  const at = rest.indexOf("${");
  if (at === -1) return;
  const fragment = rest.slice(at, at + 24);
  const unclosed = !rest.slice(at).includes("}");
  throw new ConfigError(
    `MCP server "${site.server}": field "${site.field}" has ${unclosed ? "an unclosed" : "an invalid"} variable reference ${JSON.stringify(fragment)}: write \${NAME} or \${NAME:-default} (NAME: letters, digits, _; not starting with a digit)`,
  );
}

export function expandList(values: readonly string[], env: NodeJS.ProcessEnv, site: ExpansionSite): string[] {
  return values.map((value, index) => expandText(value, env, { ...site, field: `${site.field}.${index}` }));
}

export function expandRecord(
  values: Readonly<Record<string, string>>,
  env: NodeJS.ProcessEnv,
  site: ExpansionSite,
): Record<string, string> {
  const expanded: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    expanded[key] = expandText(value, env, { ...site, field: `${site.field}.${key}` });
  }
  return expanded;
}
