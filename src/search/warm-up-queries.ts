/**
 * Synthetic queries made from a pool's own tools, for warming the engine before its first real
 * query (core/query-warm-up.ts runs them off the query path). A new request takes code paths a
 * process has not run yet — long sentences, numbers, quoted values, unknown and repeated words,
 * server names, identifiers, `+required` words, pointing phrases, words of other shapes — and its
 * first run of each pays for the compiler and for optimised code left at branches it never took.
 * These queries take those paths with the pool's own words, so they hold nothing of any eval set.
 *
 * Deterministic: the same pool gives the same queries (a fixed stride through the tools and a fixed
 * sequence of shapes), so a warm-up can be compared between runs.
 */
import { squash } from "./document-fields.ts";

/** What a query is made from: a tool as the pool lists it. */
export interface WarmUpSource {
  name: string;
  description: string;
  server?: string;
}

/** How many queries a warm-up runs by default (~0.25 s of CPU at 7.1k tools, measured). */
export const DEFAULT_WARM_UP_QUERIES = 256;
/** Characters a synthetic query keeps at most (the long natural requests are ~200–400). */
const MAX_CHARS = 400;

const LEADS = ["I need to", "how do I", "can you", "please", "help me", "find a way to", "is there a tool that can", "I want to"];
const POINTERS = ["of this", "from this", "for this", "in this"];
const ODD_WORDS = ["xqzv", "Qwerty42", "ALLCAPS", "re-run", "v2.1", "café", "naïve", "e-mail", "(beta)", "\"quoted\""];

function wordsOf(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0);
}

/** The tool's own words: its name without the `mcp__server__` prefix, split at its punctuation. */
function nameWords(source: WarmUpSource): string[] {
  const own = source.name.startsWith("mcp__") ? source.name.slice(source.name.indexOf("__", 5) + 2) : source.name;
  return wordsOf(own.replace(/([a-z])([A-Z])/g, "$1 $2"));
}

/**
 * `count` queries over `tools`, each read as a WarmUpSource by `read` (none when the pool is empty). Query `i` takes tool
 * `(i * stride) mod n` (a stride prime to n, so a small pool's tools all come up) and shape `i mod 12`.
 */
export function warmUpQueries<T>(tools: readonly T[], read: (tool: T) => WarmUpSource, count = DEFAULT_WARM_UP_QUERIES): string[] {
  const n = tools.length;
  if (n === 0) return [];
  let stride = Math.max(1, Math.floor(n * 0.618));
  while (gcd(stride, n) !== 1) stride++;
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const tool = read(tools[(i * stride) % n]!);
    const other = read(tools[(i * stride + Math.floor(n / 2) + 1) % n]!);
    const description = wordsOf(tool.description);
    const own = nameWords(tool);
    const head = (words: readonly string[], length: number) => words.slice(0, length).join(" ");
    const lead = LEADS[i % LEADS.length]!;
    let query: string;
    switch (i % 12) {
      case 0:
        query = head(description, 6);
        break;
      case 1:
        query = tool.description.split(/(?<=[.!?])\s/)[0] ?? tool.description;
        break;
      case 2:
        query = `${lead} ${own.join(" ")} the ${head(description.slice(3), 5)}`;
        break;
      case 3:
        // The server as configured ("Google Calendar": its words are query terms) and, every other
        // time, as its key, one lowercase word ("googlecalendar": no term of any tool). Where a
        // server's name words are other servers' too ("github" beside "github 3"), the words do not
        // name it, the key does: without it no warm-up query of such a pool named a server, and the
        // paths behind a named server first ran, unoptimised, on a real query.
        // The key is followed by the description's words without the server's own: those would be
        // a second mention ("LINE_Messaging_get_profile", "use weather to …") that names none.
        if (tool.server === undefined || i % 24 === 3) query = `${tool.server ?? own[0] ?? "the"} ${own.join(" ")}`;
        else query = `${squash(tool.server)} ${head(without(description, tool.server), 5)}`;
        break;
      case 4:
        // Every other time a place's coordinates: the re-rank's factor for tools that take such a
        // value (value-kinds.ts) was otherwise first taken, unoptimised, on a real query.
        query =
          i % 24 === 4
            ? `${head(description, 4)} ${(i * 37) % 1000} items from 2024-0${(i % 9) + 1}-15 with "${own[0] ?? "x"}"`
            : `${head(description, 4)} at ${i % 90}.${(i * 7919) % 10000}, -${i % 180}.${(i * 104729) % 10000} (latitude, longitude)`;
        break;
      case 5:
        query = `${own[0] ?? "get"} ${own[0] ?? "get"} ${head(description, 3)} ${head(description, 3)}`;
        break;
      case 6:
        query = `use ${tool.name} to ${head(description, 6)}`;
        break;
      case 7:
        query = `${ODD_WORDS[i % ODD_WORDS.length]} ${head(description, 5)} ${ODD_WORDS[(i + 3) % ODD_WORDS.length]}`;
        break;
      case 8:
        query = `+${(own[own.length - 1] ?? "list").toLowerCase()} ${head(description, 4)}`;
        break;
      case 9:
        query = `${own.join(" ")} ${POINTERS[i % POINTERS.length]} ${description[description.length - 1] ?? "file"}`;
        break;
      case 10:
        query = `${lead} ${tool.description} and then ${other.description}`;
        break;
      default:
        query = tool.server !== undefined && i % 24 === 11 ? `mcp__${squash(tool.server)} ${head(description, 3)}` : `${head(wordsOf(other.description), 8)} in ${other.server ?? "it"}`;
    }
    queries.push(query.slice(0, MAX_CHARS).trim() || tool.name);
  }
  return queries;
}

/** `words` without the words of `server`'s name (compared in lowercase). */
function without(words: readonly string[], server: string): string[] {
  const own = new Set(wordsOf(server.toLowerCase()));
  return words.filter((word) => !own.has(word.toLowerCase()));
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
