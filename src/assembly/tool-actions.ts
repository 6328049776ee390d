/**
 * What a server's tools do, read off their names: most MCP tool names are a verb and an object
 * (`create_issue`, `list_merge_requests`, `getUser`). The commonest verbs and objects make a line
 * that says what the server is for — "create/get/list/update: issue, merge request, pipeline" —
 * where the words that merely set a server apart ("invalid, mutate, remote") do not.
 */
import { MAX_SUMMARY_CHARS } from "./summary-limits.ts";
import { wholeSlice } from "../tool/one-line.ts";

/** Verbs tool names open with; a name that opens with anything else has no action. */
const VERBS: ReadonlySet<string> = new Set(
  (
    "add analyze append crawl drag exec explain focus reconnect scale uninstall upgrade handle hover press resize scroll type wait apply approve archive assign attach browse calculate cancel check clear click clone close comment compare " +
    "compute convert copy count create delete deploy describe detect diff disable download edit enable evaluate execute export " +
    "extract fetch fill find fork generate get import insert inspect install invite join launch list load lock login logout make " +
    "mark merge modify monitor move navigate open parse patch pause ping play post predict preview publish pull push put query read " +
    "rebase record refresh register reject release remove rename render reply report request reset resolve restart restore resume " +
    "retrieve revert review run save scan schedule scrape screenshot search select send set share sign snapshot sort start stop " +
    "stream submit subscribe summarize sync tag take test track transfer translate trigger unlock unsubscribe update upload upsert " +
    "validate verify view watch write"
  ).split(" "),
);
/** Words that are no part of an object (`get_a_page`, `wait_for`, `delete_many`, `read_multiple_files`). */
const ARTICLES: ReadonlySet<string> = new Set(["a", "an", "the", "for", "to", "of", "with", "by", "in", "on", "from", "many", "multiple", "all", "id"]);
/** Below this share of verb-first names the names are not actions, and the line would mislead. */
const MIN_ACTION_SHARE = 0.5;
const MAX_VERBS = 4;
const MAX_OBJECTS = 5;
/** A line of verbs alone (names that are bare verbs, or objects each named once) names this many. */
const MAX_BARE_VERBS = MAX_VERBS + MAX_OBJECTS;
/** From this many actions up, objects that are each named once say less than the verbs do. */
const MIN_ACTIONS_FOR_VERBS_ONLY = 8;
const MAX_OBJECT_CHARS = 30;

/**
 * The verbs and objects of a server's tool names, or undefined when its names are not actions. The
 * verb is a name's first verb word: first (`create_issue`) or after its object (`stories-get-by-id`,
 * `web_search`), where the object is then the words before it. Words of the server's own name are no
 * part of a name (`web_search_exa` on exa is `web search`).
 */
export function actionSummary(toolNames: readonly string[], server = ""): string | undefined {
  if (toolNames.length < 2) return undefined;
  const verbs = new Map<string, number>();
  const objects = new Map<string, number>();
  let actions = 0;
  const serverWords = new Set(nameWords(server));
  // A server word that is a verb stays (`brave_web_search` on brave-search still searches).
  const split = toolNames.map((name) => {
    const words = nameWords(name);
    const own = words.filter((word) => !serverWords.has(word) || VERBS.has(word));
    return own.length > 0 ? own : words;
  });
  const prefix = sharedPrefix(split);
  for (const all of split) {
    const words = prefix !== undefined && all[0] === prefix && all.length > 1 ? all.slice(1) : all;
    const at = words.findIndex((word) => VERBS.has(word));
    if (at < 0) continue;
    const verb = words[at]!;
    actions++;
    verbs.set(verb, (verbs.get(verb) ?? 0) + 1);
    // The words after the verb name its object (`batch_create_objects`); with none there, the words before do (`stories-get-by-id`).
    const after = words.slice(at + 1).filter((word) => !ARTICLES.has(word));
    const object = (after.length > 0 ? after : words.slice(0, at).filter((word) => !ARTICLES.has(word))).map(singular).join(" ");
    if (object !== "" && object.length <= MAX_OBJECT_CHARS) objects.set(object, (objects.get(object) ?? 0) + 1);
  }
  if (actions / toolNames.length < MIN_ACTION_SHARE) return undefined;
  const top = (counts: Map<string, number>, count: number) =>
    [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count).map(([word]) => word);
  // Names that are bare verbs (`puppeteer_click`, `puppeteer_hover`) say enough with the verbs alone,
  // and so do many actions on a shared prefix whose objects are each named once (`browser_press_key`,
  // `browser_navigate_back`): five of those, picked alphabetically, would say less than the verbs.
  // The shared prefix, when the server's own name does not already say it, is what they act on (`browser`, `web`).
  const scattered = prefix !== undefined && actions >= MIN_ACTIONS_FOR_VERBS_ONLY && Math.max(0, ...objects.values()) <= 1;
  const domain = prefix !== undefined && !serverWords.has(prefix) ? `${prefix}: ` : "";
  const line =
    objects.size === 0 || scattered
      ? `${domain}${top(verbs, MAX_BARE_VERBS).sort().join(", ")}`
      : `${top(verbs, MAX_VERBS).sort().join("/")}: ${top(objects, MAX_OBJECTS).join(", ")}`;
  return line.length <= MAX_SUMMARY_CHARS ? line : `${wholeSlice(line, MAX_SUMMARY_CHARS - 1)}…`;
}

/**
 * A first word most names share and that is not a verb is a namespace (`browser_click`,
 * `API-get-page`, `puppeteer_navigate`): the action comes after it.
 */
function sharedPrefix(names: readonly (readonly string[])[]): string | undefined {
  const firsts = new Map<string, number>();
  for (const words of names) if (words.length > 1) firsts.set(words[0]!, (firsts.get(words[0]!) ?? 0) + 1);
  for (const [word, count] of firsts) if (!VERBS.has(word) && count / names.length > MIN_ACTION_SHARE) return word;
  return undefined;
}

/** Lowercased words of a tool name: snake_case, kebab-case, dots and camelCase split. */
function nameWords(name: string): string[] {
  return name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/[_\-./\s]+/g, " ")
    .toLowerCase()
    .split(" ")
    .filter((word) => word !== "");
}

/** issues → issue, branches → branch, entries → entry, statuses → status; "status", "address" and short words stay. */
function singular(word: string): string {
  if (word.length <= 3 || word.endsWith("ss") || word.endsWith("us") || word.endsWith("is")) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(ch|sh|x|ss|us)es$/.test(word)) return word.slice(0, -2);
  return word.endsWith("s") ? word.slice(0, -1) : word;
}
