import { describe, expect, test } from "bun:test";
import { squash } from "../../src/search/document-fields.ts";
import { findMentions, keyHashOf, mentionWords, type MentionWord, type ServerKeys } from "../../src/search/server-mention.ts";
import { KEY_HASH_SEED, keyHash, ServerRegistry } from "../../src/search/server-registry.ts";

const registryOf = (...servers: string[]): ServerRegistry => {
  const registry = new ServerRegistry();
  servers.forEach((server, i) => registry.addMember(server, i));
  return registry;
};
/** MentionWords' fields as parallel arrays, for reading. */
const fields = (mentions: { words: readonly MentionWord[] }) => ({
  words: mentions.words.map((word) => word.mentionWord),
  keys: mentions.words.map((word) => word.mentionKey),
  hashes: mentions.words.map((word) => word.mentionHash),
  keyLengths: mentions.words.map((word) => word.mentionLength),
});

describe("mentionWords", () => {
  test("words are trimmed of edge punctuation and a possessive 's, and squashed once", () => {
    expect(fields(mentionWords("  (GitLab's) «Google» calendar, ok  "))).toEqual({
      words: ["GitLab", "Google", "calendar", "ok"],
      keys: ["gitlab", "google", "calendar", "ok"],
      hashes: ["gitlab", "google", "calendar", "ok"].map(keyHashOf),
      keyLengths: [6, 6, 8, 2],
    });
  });

  test("non-ASCII words and unicode spaces take the same path as before", () => {
    expect(fields(mentionWords("Café\u00a0Münster’s\u2003—"))).toEqual({ words: ["Café", "Münster", ""], keys: ["café", "münster", ""], hashes: ["café", "münster", ""].map(keyHashOf), keyLengths: [4, 7, -1] });
  });

  test("a word's key is its trimmed word squashed (document-fields.ts), ASCII read by runs", () => {
    const pieces = ["", "a", "Z", "e", "mail", "x9", "-", "_", ".", "'", "/", ":", "(", "é", "Ü", "ß", "’", "İ", "GitHub", "U.S.", "http://a.b/c?d=e"];
    let seed = 11;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    for (let i = 0; i < 5000; i++) {
      const raw = Array.from({ length: 1 + random(5) }, () => pieces[random(pieces.length)]!).join("");
      if (raw === "") continue;
      const [word] = mentionWords(raw).words;
      if (word !== undefined) expect([raw, word.mentionKey]).toEqual([raw, squash(word.mentionWord)]);
    }
  });

  test("bounded: a pasted page is scanned for its first 96 words only", () => {
    expect(mentionWords(Array.from({ length: 10_000 }, () => "word").join(" ")).words.length).toBe(96);
  });
});

describe("findMentions", () => {
  const tokens = (text: string) => text.toLowerCase().split(" ");

  test("the longest window naming a server wins, windows never overlap, 1 to 3 words", () => {
    const registry = registryOf("Google Calendar", "google", "Azure DevOps Server", "calendar");
    const found = findMentions(mentionWords("add to my Google Calendar then Azure DevOps Server"), registry, tokens);
    expect(found).toEqual({
      servers: [registry.idOf("Google Calendar")!, registry.idOf("Azure DevOps Server")!],
      terms: ["google", "calendar", "azure", "devops", "server"],
      // Only a name written as one word is also looked at as one word: these were written apart.
      wholeNameTerms: [],
    });
  });

  test("a window that only starts a server's name does not name it", () => {
    const registry = registryOf("Google Calendar");
    expect(findMentions(mentionWords("ask Google about it"), registry, tokens)).toEqual({ servers: [], terms: [], wholeNameTerms: [] });
  });

  test("names shorter than three characters are not recognised; a window with an emptied word is not one", () => {
    const registry = registryOf("ab", "gitlab");
    expect(findMentions(mentionWords("a b ab"), registry, tokens).servers).toEqual([]);
    expect(findMentions(mentionWords("git — lab"), registry, tokens).servers).toEqual([]);
    expect(findMentions(mentionWords("git lab"), registry, tokens).servers).toEqual([registry.idOf("gitlab")!]);
  });

  test("hashes only filter: keys that collide with every hash still match only exact names", () => {
    const registry = registryOf("gitlab");
    const everything: ServerKeys = { idOfKey: (key) => registry.idOfKey(key), mayPrefixKey: () => true, mayBeKey: () => true };
    expect(findMentions(mentionWords("gitlub tools in gitlab now"), everything, tokens)).toEqual({ servers: [registry.idOf("gitlab")!], terms: ["gitlab"], wholeNameTerms: ["gitlab"] });
  });

  test("the registry's hashes are those of the squashed key, prefix by prefix", () => {
    const registry = registryOf("Git-Hub");
    let hash = KEY_HASH_SEED;
    for (const code of [..."github"].map((c) => c.charCodeAt(0))) {
      hash = keyHash(hash, code);
      expect(registry.mayPrefixKey(hash)).toBe(true);
    }
    expect(registry.mayBeKey(hash)).toBe(true);
    expect(squash("Git-Hub")).toBe("github");
    const written = (word: string, key: string): MentionWord => ({ mentionWord: word, mentionKey: key, mentionHash: keyHashOf(key), mentionLength: key.length, mentionBits: 0, mentionAt: -1 });
    const gitHub = findMentions({ words: [written("Git", "git"), written("Hub", "hub")] }, registry, tokens);
    expect(gitHub).toEqual({ servers: [0], terms: ["git", "hub"], wholeNameTerms: [] });
    // Written as one word, the name is also the squashed key's term (a tokenizer that splits CamelCase).
    const camel = (text: string) => text.split(" ").flatMap((word) => word.split(/(?=[A-Z])/)).map((part) => part.toLowerCase());
    // And the name as configured ("Git-Hub", as this tokenizer splits it), which its tools hold.
    expect(findMentions(mentionWords("on GitHub"), registry, camel)).toEqual({ servers: [0], terms: ["git", "hub"], wholeNameTerms: ["github", "git-", "hub"] });
  });

  test("a server that lost its last tool is not named any more", () => {
    const registry = registryOf("gitlab");
    registry.removeMember(registry.idOf("gitlab")!, 0);
    expect(findMentions(mentionWords("in gitlab"), registry, tokens).servers).toEqual([]);
  });

  test("a word keeps the filter's answers for its key alone until the registry's keys change", () => {
    const registry = registryOf("gitlab");
    const query = mentionWords("open gitlab and jira issues");
    expect(findMentions(query, registry, tokens).servers).toEqual([registry.idOf("gitlab")!]);
    expect(query.words.map((word) => word.mentionAt)).toEqual([0, 1, 2, 3, 4].map(() => registry.keysVersion));
    registry.addMember("jira", 1);
    expect(findMentions(query, registry, tokens).servers).toEqual([registry.idOf("gitlab")!, registry.idOf("jira")!]);
    // A server that only gains or loses tools changes no key: the words' answers stay.
    const version = registry.keysVersion;
    registry.addMember("gitlab", 2);
    expect(registry.keysVersion).toBe(version);
  });

  test("kept answers find what asking every time finds, as the registry grows (generated queries)", () => {
    const vocabulary = ["git", "lab", "gitlab", "Google", "calendar", "a", "go", "ogle", "mind", "map", "x", "—", "GitHub's", "(jira)", "hub"];
    const names = ["GitLab", "Google Calendar", "go", "Mind Map", "git hub", "a", "Jira", "lab git", "calendar"];
    let seed = 7;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const queries = Array.from({ length: 200 }, () => mentionWords(Array.from({ length: 1 + random(8) }, () => vocabulary[random(vocabulary.length)]!).join(" ")));
    const registry = new ServerRegistry();
    const asking: ServerKeys = { idOfKey: (key) => registry.idOfKey(key), mayPrefixKey: (hash) => registry.mayPrefixKey(hash), mayBeKey: (hash) => registry.mayBeKey(hash), nameOf: (id) => registry.nameOf(id) };
    names.forEach((name, slot) => {
      registry.addMember(name, slot);
      for (const query of queries) {
        const fresh = mentionWords(query.words.map((word) => word.mentionWord || "—").join(" "));
        expect(findMentions(query, registry, tokens)).toEqual(findMentions(fresh, asking, tokens));
      }
    });
  });
});
