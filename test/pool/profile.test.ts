/** The pure profile filter: group expansion, entry kinds, order, and the refusal reason. */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { ConfigError, parseConfig } from "../../src/config/load.ts";
import { assemblePool } from "../../src/pool/assemble.ts";
import { applyProfile, expandEntries, globMatcher, outsideProfile, ProfileError, resolveProfile, BUILTIN_TOOL_GROUPS } from "../../src/pool/profile.ts";
import { buildMcpTool, buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { JsonSchemaCompiler } from "../../src/validate/ajv.ts";
import { resolveSettings } from "../../src/session/settings.ts";

const builtin = (name: string) => buildTool({ name, description: name, inputSchema: z.strictObject({}), call: async () => textResult(name) });
const compiler = new JsonSchemaCompiler();
const mcp = (server: string, tool: string) =>
  buildMcpTool(
    { name: `mcp__${server}__${tool}`, description: tool, inputJSONSchema: { type: "object" }, mcpInfo: { server, tool }, call: async () => textResult(tool) },
    compiler,
  );

const pool = assemblePool({
  builtins: ["Read", "Write", "Edit", "Glob", "Grep", "Bash", "WebFetch"].map(builtin),
  mcpTools: [mcp("github", "create_issue"), mcp("github", "search_code"), mcp("git_hub", "x"), mcp("linear", "search_issues")],
});
const names = (profile: ReturnType<typeof resolveProfile>) => applyProfile(pool, profile).tools.map((tool) => tool.name);

describe("profiles", () => {
  test("groups expand (built-in and user, nested); servers, globs and names match; order is the pool's", () => {
    const config = {
      toolGroups: { "group:github": ["mcp__github"], "group:dev": ["group:fs", "group:github"] },
      profiles: { coding: { include: ["group:dev", "mcp__*__search*"], exclude: ["Write"] } },
    };
    const profile = resolveProfile("coding", config);
    expect(profile.include).toEqual([...BUILTIN_TOOL_GROUPS["group:fs"]!, "mcp__github", "mcp__*__search*"]);
    expect(names(profile)).toEqual(["Edit", "Glob", "Grep", "Read", "mcp__github__create_issue", "mcp__github__search_code", "mcp__linear__search_issues"]);
    // mcp__github is the server "github", not a prefix of "git_hub" or of a server "github2".
    expect(names(resolveProfile("p", { toolGroups: {}, profiles: { p: { include: ["mcp__git_hub"], exclude: [] } } }))).toEqual(["mcp__git_hub__x"]);
    // An empty include is everything; exclude still applies.
    expect(names(resolveProfile("p", { toolGroups: {}, profiles: { p: { include: [], exclude: ["group:mcp", "Bash"] } } }))).toEqual(["Edit", "Glob", "Grep", "Read", "WebFetch", "Write"]);
    // Globs are anchored and escape regex characters.
    expect(names(resolveProfile("p", { toolGroups: {}, profiles: { p: { include: ["Re?d", "W.*"], exclude: [] } } }))).toEqual(["Read"]);
  });

  test("globs: * and ? over the whole name, exact, and linear on hostile patterns", () => {
    const cases: [string, string, boolean][] = [
      ["mcp__*__search*", "mcp__github__search_code", true],
      ["mcp__*__search*", "mcp__github__create_issue", false],
      ["*", "", true],
      ["a*b*c", "abc", true],
      ["a*b*c", "aXbYbZc", true],
      ["a*b*c", "acb", false],
      ["a*bc", "abcbc", true],
      ["Re?d", "Read", true],
      ["Re?d", "Red", false],
      ["*ab", "aab", true],
      ["ab*", "a", false],
      ["a.c", "abc", false],
      ["a.c*", "a.cd", true],
    ];
    for (const [pattern, name, expected] of cases) expect([pattern, name, globMatcher(pattern)(name)]).toEqual([pattern, name, expected]);
    // A backtracking matcher would not finish this in the test's lifetime; this one is linear.
    expect(globMatcher(`${"*a".repeat(50)}*b`)("a".repeat(300))).toBe(false);
  });

  test("the refusal names the profile; unknown tools are not the profile's business", () => {
    const profile = resolveProfile("minimal", { toolGroups: {}, profiles: { minimal: { include: ["Read"], exclude: [] } } });
    expect(outsideProfile(pool, profile, "Write")).toBe('Write is not available in this session: it is outside the session\'s tool profile "minimal".');
    expect(outsideProfile(pool, profile, "Read")).toBeUndefined();
    expect(outsideProfile(pool, profile, "Nope")).toBeUndefined();
    expect(outsideProfile(pool, null, "Write")).toBeUndefined();
    expect(applyProfile(pool, profile).get("Write")).toBeUndefined();
    expect(applyProfile(pool, null)).toBe(pool);
  });

  test("unknown profiles and groups, and cycles, are errors naming the field", () => {
    expect(() => resolveProfile("x", { toolGroups: {}, profiles: {} })).toThrow(new ProfileError('unknown profile "x"; the config defines no profiles'));
    expect(() => expandEntries(["group:nope"], BUILTIN_TOOL_GROUPS, "profiles.p.include")).toThrow(/field "profiles.p.include": unknown tool group "group:nope"/);
    expect(() => parseConfig({ toolGroups: { "group:a": ["group:b"], "group:b": ["group:a"] } }, "c.json")).toThrow(ConfigError);
    expect(() => parseConfig({ toolGroups: { "group:a": ["group:b"], "group:b": ["group:a"] } }, "c.json")).toThrow(/contains itself \(group:a → group:b → group:a\)/);
    expect(() => parseConfig({ profiles: { p: { include: ["group:missing"] } } }, "c.json")).toThrow(/field "profiles.p.include": unknown tool group "group:missing"/);
    expect(() => parseConfig({ toolGroups: { fs: ["Read"] } }, "c.json")).toThrow(/the name "fs" is not allowed: group names look like group:NAME/);
    expect(() => parseConfig({ profiles: { "bad name": {} } }, "c.json")).toThrow(/the name "bad name" is not allowed: profile names use/);
  });

  test("a session's profile: its own pick, else TOOLPOOL_PROFILE; kept when re-opened without one", () => {
    const config = parseConfig({ profiles: { a: { include: ["Read"] }, b: { include: ["Bash"] } } }, "test");
    const defaults = { config, env: { TOOLPOOL_PROFILE: "b" }, daemonCwd: process.cwd(), prefetchCompiled: false };
    expect(resolveSettings({}, defaults).profile?.name).toBe("b");
    const picked = resolveSettings({ profile: "a" }, defaults);
    expect(picked.profile).toEqual({ name: "a", include: ["Read"], exclude: [] });
    expect(resolveSettings({ model: "x" }, defaults, picked).profile?.name).toBe("a");
    expect(resolveSettings({}, { ...defaults, env: {} }).profile).toBeNull();
    expect(() => resolveSettings({}, { ...defaults, env: { TOOLPOOL_PROFILE: "zzz" } })).toThrow(/unknown profile "zzz"/);
    // A project's default comes before the environment's, and a client's own pick before both.
    const project = { ...defaults, projectProfile: () => "a" };
    expect(resolveSettings({}, project).profile?.name).toBe("a");
    expect(resolveSettings({ profile: "b" }, project).profile?.name).toBe("b");
    expect(() => resolveSettings({}, { ...defaults, projectProfile: () => "ghost" })).toThrow(
      'field "profile": unknown profile "ghost"; configured profiles: a, b (the project\'s defaultProfile)',
    );
  });
});
