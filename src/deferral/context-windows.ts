/**
 * Context windows of known models, for tst-auto's threshold. Matched on the lower-cased model id:
 * the longest pattern contained in the id wins, so `gpt-4o-mini` finds `gpt-4o` and a dated or
 * provider-prefixed id (`anthropic/claude-sonnet-4-5-20250929`) still finds its family. A session
 * that knows better passes its own number, which always wins.
 */

/** Used for a model nobody recognises: the common window of current models, erring small (a smaller
 * window defers sooner, which costs a search round-trip, never a context overflow). */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

const ONE_MILLION = 1_000_000;

/** Pattern (substring of the lower-cased id) → tokens. Order does not matter; the longest match wins. */
export const KNOWN_CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  // Anthropic: 200K across current families (a `[1m]` suffix is handled before the table).
  "claude": 200_000,
  "claude-2.0": 100_000,
  "claude-instant": 100_000,
  // OpenAI
  "gpt-3.5-turbo": 16_385,
  "gpt-4": 8_192,
  "gpt-4-32k": 32_768,
  "gpt-4-turbo": 128_000,
  "gpt-4o": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-4.5": 128_000,
  "gpt-5": 400_000,
  "gpt-oss": 131_072,
  "o1": 200_000,
  "o1-mini": 128_000,
  "o3": 200_000,
  "o4-mini": 200_000,
  // Google
  "gemini-1.5-pro": 2_097_152,
  "gemini-1.5-flash": 1_048_576,
  "gemini-2": 1_048_576,
  "gemini-3": 1_048_576,
  // Open-weight families as their hosted APIs serve them.
  "deepseek": 128_000,
  "qwen": 131_072,
  "llama-3": 128_000,
  "llama-4": 1_000_000,
  "mistral-large": 128_000,
  "grok": 131_072,
  "kimi": 131_072,
  "glm-4": 128_000,
};

/**
 * The context window for a model: the session's own number when it gives one, else the longest
 * known pattern in the id, else the default. `table` replaces the built-in table (tests, flags).
 */
export function contextWindowFor(
  model: string,
  sessionWindow?: number | null,
  table: Readonly<Record<string, number>> = KNOWN_CONTEXT_WINDOWS,
): number {
  if (sessionWindow !== undefined && sessionWindow !== null && sessionWindow > 0) return sessionWindow;
  const id = model.toLowerCase();
  // Claude Code's spelling of the 1M-context variant of a model, e.g. `claude-sonnet-4-5[1m]`.
  if (id.endsWith("[1m]")) return ONE_MILLION;
  let best: { pattern: string; tokens: number } | undefined;
  for (const [pattern, tokens] of Object.entries(table)) {
    if (!matchesModel(id, pattern)) continue;
    if (best === undefined || pattern.length > best.pattern.length) best = { pattern, tokens };
  }
  return best?.tokens ?? DEFAULT_CONTEXT_WINDOW;
}

/**
 * A short family name like `o1` or `gpt-4` must not match inside an unrelated id (`gpt-4o`,
 * `pro1`), so the pattern must start the id or follow a non-alphanumeric character, and must not
 * be followed by a letter (`gpt-4` + `o` is another family; `qwen` + `2.5` is the same one).
 */
function matchesModel(id: string, pattern: string): boolean {
  for (let at = id.indexOf(pattern); at >= 0; at = id.indexOf(pattern, at + 1)) {
    const before = at === 0 ? "" : id[at - 1]!;
    const after = id[at + pattern.length] ?? "";
    if (!/[a-z0-9]/.test(before) && !/[a-z]/.test(after)) return true;
  }
  return false;
}
