/**
 * One line per MCP server, for the `servers` announcement style: the server's name, how many of
 * its tools are deferred, and what it is for — the server's own `instructions` (MCP initialize)
 * when it gives them, cut to their first sentence, else what its tools' names say they do (verbs and
 * objects, tool-actions.ts) when most names open with a verb, else the words that set its tools apart from
 * the rest of the pool (most frequent in its tool names and descriptions, weighted by how few
 * other servers use them; inflections of a word count as one). A pure function of the pool: the same tools give the same lines.
 */
import { foldLine, wholeSlice } from "../tool/one-line.ts";
import { porterStem } from "../search/porter-stem.ts";
import { quoteMarkers } from "./quoted-markers.ts";
import { MAX_SUMMARY_CHARS } from "./summary-limits.ts";
import { actionSummary } from "./tool-actions.ts";

export interface ServerSummary {
  name: string;
  toolCount: number;
  /** One line: the server's instructions or its distinctive terms. */
  description: string;
  /** Where the line came from. */
  source: "instructions" | "actions" | "tool" | "terms";
  /** The server's groups among these tools (MCP grouping extension), by name. */
  groups?: string[];
  /** Their titles, where the server gave one (untrusted: shown on one line, cut; announcements.ts). */
  groupTitles?: ReadonlyMap<string, string>;
}

export interface SummaryTool {
  server: string;
  /** The server's own tool name (`create_issue`). */
  tool: string;
  description: string;
}

/** Instructions are cut here (at a sentence end when there is one): a line, not a manual. */
export { MAX_SUMMARY_CHARS };
const TERMS_PER_SERVER = 4;
const NAME_WEIGHT = 3;
const BOILERPLATE_MIN_TOOLS = 4;
const BOILERPLATE_SHARE = 0.5;
/** Description text read per tool: the opening, where tools say what they do. */
const DESCRIPTION_CHARS = 300;
const WORD = /[\p{L}][\p{L}\p{N}]+/gu;
const ASCII_WORD = /^[a-z]+$/;
/** Function words and words every tool catalog uses: they set no server apart. */
const COMMON: ReadonlySet<string> = new Set(
  (
    "a an and any are as at be by can do does each for from has have if in into is it its may more must no not of on one or " +
    "other should so such than that the their then there these this those to up use used using via what when which while " +
    "will with within without you your all also new tool tools returns return given specified optional required default true false null"
  ).split(" "),
);
/** Longer "words" are unsplit runs (CJK text, hashes): not terms a reader scans. */
const MAX_WORD_CHARS = 20;

export interface SummaryOptions {
  /** false: no action lines, only instructions or distinctive terms (default true). */
  actions?: boolean;
}

export function summarizeServers(tools: readonly SummaryTool[], instructions: ReadonlyMap<string, string> = new Map(), options: SummaryOptions = {}): ServerSummary[] {
  const byServer = new Map<string, SummaryTool[]>();
  for (const tool of tools) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  const counts = new Map<string, Map<string, number>>();
  const serversWith = new Map<string, number>();
  /** The most frequent spelling of each stem, server by server: "stations" and "station" are one term. */
  const spellings = new Map<string, Map<string, Map<string, number>>>();
  for (const [server, members] of byServer) {
    const own = new Map<string, number>();
    const spelt = new Map<string, Map<string, number>>();
    /** Stems by how many tools' descriptions (not names) use them, and the stems some name uses. */
    const proseOnly = new Map<string, number>();
    const named = new Set<string>();
    for (const tool of members) {
      // Once per tool, and a word of the name counts NAME_WEIGHT times: the name is what the tool
      // is, while a description repeats boilerplate ("Bad request", "my team") in every tool.
      const credit = new Map<string, number>();
      const note = (word: string, weight: number) => {
        const stem = stemOf(word);
        credit.set(stem, Math.max(credit.get(stem) ?? 0, weight));
        const forms = spelt.get(stem) ?? new Map<string, number>();
        forms.set(word, (forms.get(word) ?? 0) + 1);
        spelt.set(stem, forms);
      };
      for (const word of words(tool.description.slice(0, DESCRIPTION_CHARS), false)) note(word, 1);
      for (const word of words(tool.tool, true)) note(word, NAME_WEIGHT);
      for (const [stem, weight] of credit) {
        own.set(stem, (own.get(stem) ?? 0) + weight);
        if (weight < NAME_WEIGHT) proseOnly.set(stem, (proseOnly.get(stem) ?? 0) + 1);
        else named.add(stem);
      }
    }
    // A word most of a server's descriptions repeat, and no name uses, is boilerplate.
    if (members.length >= BOILERPLATE_MIN_TOOLS) {
      for (const [stem, tools] of proseOnly) if (!named.has(stem) && tools / members.length > BOILERPLATE_SHARE) own.delete(stem);
    }
    for (const stem of own.keys()) serversWith.set(stem, (serversWith.get(stem) ?? 0) + 1);
    counts.set(server, own);
    spellings.set(server, spelt);
  }
  const total = byServer.size;
  return [...byServer.keys()].sort().map((server) => {
    const toolCount = byServer.get(server)!.length;
    const given = purposeSentence(instructions.get(server) ?? "");
    if (given.length > 0) return { name: server, toolCount, description: given, source: "instructions" as const };
    const actions = options.actions === false ? undefined : actionSummary(byServer.get(server)!.map((tool) => tool.tool).sort(), server);
    if (actions !== undefined) return { name: server, toolCount, description: actions, source: "actions" as const };
    // One tool: what it says it does is what the server is for.
    const only = toolCount === 1 && options.actions !== false ? firstSentence(byServer.get(server)![0]!.description) : "";
    if (only.length > 0) return { name: server, toolCount, description: only, source: "tool" as const };
    // The server's own name says nothing new: neither its words nor the name run together.
    const serverWords = new Set([...words(server, true), words(server, false).join("")].map(stemOf));
    const spelt = spellings.get(server)!;
    const ranked = [...counts.get(server)!]
      .filter(([stem]) => !serverWords.has(stem))
      .map(([stem, count]) => ({ stem, weight: (1 + Math.log(count)) * Math.log((1 + total) / serversWith.get(stem)!) }))
      .sort((a, b) => b.weight - a.weight || a.stem.localeCompare(b.stem))
      .slice(0, TERMS_PER_SERVER)
      .map(({ stem }) => commonest(spelt.get(stem)!));
    return { name: server, toolCount, description: ranked.join(", "), source: "terms" as const };
  });
}

/**
 * Lowercased content words of a text, snake_case and kebab-case split; CamelCase too in names
 * (`getUser`), not in prose, where it is a brand ("GitHub" is one word, not "git hub").
 */
function words(text: string, camel: boolean): string[] {
  const split = camel ? text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2") : text;
  const spaced = split.replace(/[_\-./]+/g, " ").toLowerCase();
  return (spaced.match(WORD) ?? []).filter((word) => word.length <= MAX_WORD_CHARS && !COMMON.has(word));
}

/** An English word's stem (others as they are), so inflections count as one term. */
function stemOf(word: string): string {
  return ASCII_WORD.test(word) ? porterStem(word) : word;
}

/** The most frequent spelling; ties go to the shorter, then the first in order. */
function commonest(forms: ReadonlyMap<string, number>): string {
  let best = "";
  let bestCount = 0;
  for (const [form, count] of forms) {
    if (count > bestCount || (count === bestCount && (form.length < best.length || (form.length === best.length && form < best)))) {
      best = form;
      bestCount = count;
    }
  }
  return best;
}

/** A sentence about the instructions themselves ("Audience: these instructions are written for an LLM…"). */
const ABOUT_ITSELF = /\b(these|this|following)\s+(instructions?|document|guide)\b|^(audience|note|important)\s*:/i;

/**
 * The first sentence of a server's instructions, or "" when it is about the instructions themselves:
 * then they are a manual, not a description, and the tools' names say better what the server is for.
 */
export function purposeSentence(text: string): string {
  const first = firstSentence(text);
  return ABOUT_ITSELF.test(first) ? "" : first;
}

/** The first sentence of a text on one line, at most MAX_SUMMARY_CHARS. */
export function firstSentence(text: string): string {
  // Markdown headings ("# Everything Server – Instructions") title a manual; the prose says what it is.
  // Blanks within the line only: `\s*` ran over line ends, and 4,096 characters of blank lines (as much
  // as instructions keep) took 27 ms a summary, quadratic (each line start scanned all that followed).
  const prose = text.replace(/^[^\S\n\r\u2028\u2029]*#{1,6}[^\S\n\r\u2028\u2029].*$/gm, "");
  // One line whatever the server wrote (tool/one-line.ts), its markers defused (quoted-markers.ts).
  const line = quoteMarkers(foldLine(prose.trim().length > 0 ? prose : text).trim());
  if (line.length === 0) return "";
  const end = line.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? line.slice(0, end + 1) : line;
  if (sentence.length <= MAX_SUMMARY_CHARS) return sentence;
  const cut = wholeSlice(sentence, MAX_SUMMARY_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return (space > MAX_SUMMARY_CHARS / 2 ? cut.slice(0, space) : cut) + "…";
}
