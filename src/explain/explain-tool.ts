/**
 * `toolpool explain NAME`: why a tool is or is not in a session's tools array right now, as the
 * chain of decisions the daemon made — compiled out of this tier, denied by a config rule, its
 * MCP server not connected, collided, switched off, deferred (by which rule), discovered (how).
 * Pure: the daemon gathers the facts (explain-facts in the handler) and this walks them in the
 * order the daemon applies them, so each answer names the first thing that kept the tool out.
 */
import { FEATURES, GATED_TOOLS, type FeatureName } from "../../features/tiers.ts";
import { deferSettingFor, MAX_EAGER_MCP_CHARS, type EagerPolicy } from "../deferral/eager-policy.ts";
import { deferralRule, type DeferralRule } from "../deferral/is-deferred.ts";
import { EXECUTE_EXTRA_TOOL_NAME, TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import { parseRule, ruleTargetsTool } from "../permissions/rules.ts";
import type { Pool } from "../pool/assemble.ts";
import { parseMcpName } from "../tool/names.ts";
import type { Tool } from "../tool/tool.ts";
import type { Decision, Discovery, Explanation } from "../protocol/explain.ts";
import type { SandboxState } from "../sandbox/command-sandbox.ts";
import { describeServerState, type ServerFacts } from "./server-decision.ts";

export interface ExplainSession {
  id: string;
  /** Whether this session's requests defer (mode on and delivery not standard). */
  deferring: boolean;
  delivery: string;
  deliveryReason: string;
  mode: string;
  modeReason: string;
  /** Tools the kill switch had removed when the session opened: out of its arrays for its life. */
  killedAtOpen: readonly string[];
  /** Why a pool tool is not this session's (its profile, another project's server); undefined when it is. */
  outside?: (tool: Tool) => string | undefined;
  /** The kill switch now: a reason when calls are refused at once. */
  killSwitch: (tool: Tool) => string | undefined;
  /** How each deferred tool this session can use was discovered. */
  discovered: ReadonlyMap<string, Discovery>;
  /** Deferred tools promoted to this session's core set (its workspace's most used), fixed at open. */
  promoted?: ReadonlySet<string>;
  /** The session's own deny rules (a client may add, never remove). */
  deny: readonly string[];
  hasOutputSchema: boolean;
}

export interface ExplainInput {
  name: string;
  tier: { name: string; features: readonly string[] };
  pool: Pool;
  /** Every tool offered before the config's deny rules: built-ins, and MCP tools as listed. */
  offered: readonly Tool[];
  /** The config's deny rules and the file they came from. */
  configDeny: { rules: readonly string[]; source: string };
  servers: readonly ServerFacts[];
  session: ExplainSession | undefined;
  /** The Bash sandbox, when the daemon has one: explain says whether commands run confined. */
  sandbox?: Pick<SandboxState, "mode" | "network" | "confined" | "summary">;
  /** Pool names close to a name that matched nothing. */
  suggest: (name: string) => string[];
  /** The config's `defer` settings (eager-policy.ts): the deferral step names the one that decided. */
  deferPolicy?: Pick<EagerPolicy, "tools" | "servers">;
}

export function explainTool(input: ExplainInput): Explanation {
  const { name, session } = input;
  const decisions: Decision[] = [];
  // A server waiting for an OAuth login: its cached tools are listed, and every call fails until the login.
  let login: { server: string; command: string } | undefined;
  const done = (inToolsArray: boolean, callable: boolean, summary: string, extra: Partial<Explanation> = {}): Explanation => ({
    name,
    ...(session && { session: session.id }),
    inToolsArray,
    callable: callable && !login,
    summary: login && inToolsArray ? `${extra.tool ?? name} is in the array, but MCP server ${login.server} waits for an OAuth login: a call fails until \`${login.command}\`` : summary,
    decisions,
    ...extra,
  });

  const meta = explainSessionTool(name, session, decisions);
  if (meta) return done(meta.inToolsArray, meta.inToolsArray, meta.summary, { tool: name });

  const tool = input.pool.get(name);
  if (!tool) return explainAbsent(input, decisions, done);

  if (tool.name !== name) decisions.push({ step: "alias", verdict: "note", reason: `"${name}" is an alias of ${tool.name}` });
  const collision = input.pool.collisions.find((entry) => entry.name === tool.name);
  if (collision) {
    decisions.push({ step: "collision", verdict: "note", reason: `several tools are named ${tool.name}: ${collision.kept} kept the name; ${collision.dropped.join(", ")} dropped (a later source never replaces an earlier one)` });
  }
  const server = tool.mcpInfo ? input.servers.find((entry) => entry.name === tool.mcpInfo?.server) : undefined;
  if (server?.state === "needs-auth") {
    login = { server: server.name, command: server.login ?? `toolpool auth login ${server.name}` };
    decisions.push({ step: "server", verdict: "blocked", reason: `${describeServerState(server).reason}; the tool is listed from the server's last catalog and every call fails until the login`, server: server.name, state: server.state });
  } else if (server) {
    const state = describeServerState(server);
    decisions.push({ step: "server", verdict: state.ready ? "pass" : "note", reason: `${state.reason}${state.ready ? "" : "; the tool is listed from the server's last catalog and a call waits for the server to start"}`, server: server.name, state: server.state });
  }
  decisions.push({ step: "pool", verdict: "pass", reason: `${tool.name} is in the pool (${tool.mcpInfo ? `MCP server ${tool.mcpInfo.server}` : "built-in"})` });
  if (input.sandbox && !tool.isMcp && tool.name === "Bash") {
    decisions.push({ step: "sandbox", verdict: input.sandbox.confined ? "pass" : "note", reason: `sandbox mode ${input.sandbox.mode}, network ${input.sandbox.network}: ${input.sandbox.summary}` });
  }
  if (!tool.isEnabled()) {
    decisions.push({ step: "enabled", verdict: "blocked", reason: `${tool.name} is not enabled in this daemon` });
    return done(false, false, `${tool.name} is in the pool but not enabled: it is never sent`, { tool: tool.name });
  }
  if (!session) {
    decisions.push({ step: "session", verdict: "note", reason: "no session is open: the rest depends on a session's delivery and discoveries" });
    return done(false, true, `${tool.name} is in the pool; open a session (or pass --session) to see whether it is in its array`, { tool: tool.name });
  }
  if (session.killedAtOpen.includes(tool.name)) {
    decisions.push({ step: "kill_switch", verdict: "blocked", reason: `the runtime flag "disabled_tools" named ${tool.name} when this session opened: it stays out of this session's arrays` });
    return done(false, false, `${tool.name} is switched off for this session (kill switch)`, { tool: tool.name });
  }
  const outside = session.outside?.(tool);
  if (outside) {
    decisions.push({ step: "profile", verdict: "blocked", reason: outside });
    return done(false, false, `${tool.name} is not one of this session's tools: ${outside}`, { tool: tool.name });
  }
  const killed = session.killSwitch(tool);
  if (killed) decisions.push({ step: "kill_switch", verdict: "blocked", reason: `calls are refused at once: ${killed}` });
  const denied = session.deny.find((rule) => { const parsed = parseRule(rule); return parsed.pattern === undefined && ruleTargetsTool(parsed, tool); });
  if (denied) decisions.push({ step: "permissions", verdict: "blocked", reason: `the session's deny rule "${denied}" refuses every call`, rule: denied, source: "session" });
  const callable = !killed && !denied;

  const rule = deferralRule(tool);
  const deferred = rule === "mcp_tool" || rule === "should_defer";
  const guarded = input.pool.guarded?.includes(tool.name) === true;
  decisions.push({
    step: "deferral",
    verdict: deferred ? "note" : "pass",
    reason: guarded ? `deferred by the tool-count guard: more tools are eager than the config's maxToolsInArray lets the tools array hold, or more than ${MAX_EAGER_MCP_CHARS / (1024 * 1024)} MiB of MCP tool definitions (it would be sent in full otherwise)` : (decidedBy(tool, input.deferPolicy) ?? DEFERRAL_WORDING[rule]),
    rule: guarded ? "tool_count_guard" : rule,
  });
  if (!deferred) return done(true, callable, `${tool.name} is sent in full in every request (${rule})`, { tool: tool.name });
  if (!session.deferring) {
    decisions.push({ step: "delivery", verdict: "pass", reason: `this session does not defer (mode ${session.mode}: ${session.modeReason}; delivery ${session.delivery}: ${session.deliveryReason}), so every tool is sent in full` });
    return done(true, callable, `${tool.name} is sent in full: this session does not defer`, { tool: tool.name });
  }
  decisions.push({ step: "delivery", verdict: "note", reason: `this session defers (mode ${session.mode}: ${session.modeReason}) with ${session.delivery} delivery (${session.deliveryReason})` });
  if (session.promoted?.has(tool.name)) {
    decisions.push({ step: "promoted", verdict: "pass", reason: "promoted to this session's core set when it opened: one of its workspace's most used tools (flag usage_promoted_tools)" });
    return done(true, callable, `${tool.name} is sent in full: promoted to this session's core set`, { tool: tool.name });
  }
  const found = session.discovered.get(tool.name);
  if (!found) {
    decisions.push({ step: "discovered", verdict: "blocked", reason: `not discovered in this session yet: the model finds it with ${TOOL_SEARCH_TOOL_NAME} (e.g. "select:${tool.name}")` });
    return done(false, false, `${tool.name} is deferred and not discovered yet: it waits behind ${TOOL_SEARCH_TOOL_NAME}`, { tool: tool.name });
  }
  decisions.push({ step: "discovered", verdict: "pass", reason: DISCOVERY_WORDING[found.via](found), via: found.via, ...(found.query !== undefined && { query: found.query }) });
  if (session.delivery === "native") return done(true, callable, `${tool.name} is in the array as a discovered deferred tool (defer_loading)`, { tool: tool.name });
  if (session.delivery === "mid-conversation") return done(true, callable, `${tool.name} is discovered: a tool_addition system message loads it (mid-conversation delivery; the array itself never changes)`, { tool: tool.name });
  return done(false, callable, `${tool.name} is discovered: the model runs it through ${EXECUTE_EXTRA_TOOL_NAME} (proxy delivery never adds it to the array)`, { tool: tool.name });
}

/**
 * The operator's or the server's word that made a tool eager or deferred, when it was theirs: the
 * deferral rule alone said "a built-in that asks to be deferred" of a Read the config deferred.
 */
function decidedBy(tool: Tool, policy: ExplainInput["deferPolicy"]): string | undefined {
  const decided = policy === undefined ? undefined : deferSettingFor(tool, policy);
  const verdict = (setting: "always" | "never") => (setting === "always" ? "always deferred" : "never deferred");
  if (decided?.setting === "always" || decided?.setting === "never") {
    return decided.via === "tool" ? `the config's defer says "${decided.setting}" for ${tool.name}: ${verdict(decided.setting)}` : `the config's mcpServers.${tool.mcpInfo?.server}.defer says "${decided.setting}": ${verdict(decided.setting)}`;
  }
  if (tool.mcpInfo === undefined || !tool.alwaysLoad) return undefined;
  if (tool.mcpInfo.load?.alwaysLoad === "config") return `the config's mcpServers.${tool.mcpInfo.server}.alwaysLoad names it: never deferred`;
  if (tool.mcpInfo.load?.alwaysLoad === "server") return "its MCP server asks for it to be always loaded (_meta \"anthropic/alwaysLoad\"): never deferred";
  return undefined;
}

const DEFERRAL_WORDING: Record<DeferralRule, string> = {
  always_load: "alwaysLoad is set for it: never deferred",
  meta_tool: "a meta-tool: never deferred",
  mcp_tool: "an MCP tool: deferred whenever the session defers",
  should_defer: "a built-in that asks to be deferred (shouldDefer)",
  core: "a core built-in: never deferred",
};

const DISCOVERY_WORDING: Record<Discovery["via"], (found: Discovery) => string> = {
  transcript: () => "discovered: the transcript holds a ToolSearch result that loaded it",
  search: (found) => `discovered by this session's ToolSearch ${JSON.stringify(found.query ?? "")}`,
  prefetch: () => "discovered: prefetch suggested it to this session",
};

/** ToolSearch, ExecuteExtraTool and StructuredOutput belong to the session, not the pool. */
function explainSessionTool(name: string, session: ExplainSession | undefined, decisions: Decision[]): { inToolsArray: boolean; summary: string } | undefined {
  if (name !== TOOL_SEARCH_TOOL_NAME && name !== EXECUTE_EXTRA_TOOL_NAME && name !== "StructuredOutput") return undefined;
  if (!session) {
    decisions.push({ step: "session", verdict: "note", reason: `${name} is a session's own tool; no session is open` });
    return { inToolsArray: false, summary: `${name} belongs to a session; open one (or pass --session)` };
  }
  if (name === "StructuredOutput") {
    const present = session.hasOutputSchema;
    decisions.push({ step: "session", verdict: present ? "pass" : "blocked", reason: present ? "the session gave an outputSchema" : "the session gave no outputSchema" });
    return { inToolsArray: present, summary: present ? "StructuredOutput is in the array (the session's outputSchema)" : "StructuredOutput is only sent to a session with an outputSchema" };
  }
  const present = session.deferring && (name === TOOL_SEARCH_TOOL_NAME || session.delivery === "proxy");
  const why = !session.deferring ? `this session does not defer (mode ${session.mode}: ${session.modeReason}; delivery ${session.delivery})` : present ? `this session defers with ${session.delivery} delivery` : `${EXECUTE_EXTRA_TOOL_NAME} is sent in proxy delivery only; this session uses ${session.delivery}`;
  decisions.push({ step: "delivery", verdict: present ? "pass" : "blocked", reason: why });
  return { inToolsArray: present, summary: `${name} is ${present ? "" : "not "}in the array: ${why}` };
}

/** A name the pool does not hold: compiled out, denied, its server not there, or unknown. */
function explainAbsent(
  input: ExplainInput,
  decisions: Decision[],
  done: (inToolsArray: boolean, callable: boolean, summary: string, extra?: Partial<Explanation>) => Explanation,
): Explanation {
  const { name } = input;
  const gate = (Object.keys(GATED_TOOLS) as FeatureName[]).find((feature) => GATED_TOOLS[feature].includes(name));
  if (gate && !input.tier.features.includes(gate)) {
    decisions.push({ step: "compiled", verdict: "blocked", reason: `${name} is gated by the compile-time flag ${gate} (${FEATURES[gate]}); this binary (tier ${input.tier.name}) was built without it, so it holds none of its code` });
    return done(false, false, `${name} is not in this binary: tier ${input.tier.name} is built without ${gate}`);
  }
  const offered = input.offered.find((tool) => tool.name === name || tool.aliases.includes(name));
  if (offered) {
    const rule = input.configDeny.rules.find((text) => { const parsed = parseRule(text); return parsed.pattern === undefined && ruleTargetsTool(parsed, offered); });
    if (rule) {
      decisions.push({ step: "deny_rule", verdict: "blocked", reason: `removed from the pool by the deny rule "${rule}" in ${input.configDeny.source}`, rule, source: input.configDeny.source });
      return done(false, false, `${name} is denied by "${rule}" (${input.configDeny.source})`);
    }
  }
  const mcp = parseMcpName(name);
  const server = mcp ? input.servers.find((entry) => entry.name === mcp.server) : undefined;
  if (server) {
    const state = describeServerState(server);
    decisions.push({ step: "server", verdict: state.ready ? "note" : "blocked", reason: state.reason, server: server.name, state: server.state });
    if (!state.ready) return done(false, false, `${name} is not in the pool: ${state.reason}`, suggestions(input));
    decisions.push({ step: "pool", verdict: "blocked", reason: `server ${server.name} is connected but does not list a tool named ${mcp?.tool}` });
    return done(false, false, `${server.name} offers no tool ${JSON.stringify(mcp?.tool)}`, suggestions(input));
  }
  if (mcp) decisions.push({ step: "server", verdict: "blocked", reason: `no MCP server named ${JSON.stringify(mcp.server)} is configured` });
  else if (gate) decisions.push({ step: "compiled", verdict: "pass", reason: `${gate} is compiled in, but this daemon did not add ${name} (its service is not configured)` });
  decisions.push({ step: "pool", verdict: "blocked", reason: `no tool named ${JSON.stringify(name)} is in the pool` });
  const extra = suggestions(input);
  return done(false, false, `no tool named ${JSON.stringify(name)}${extra.didYouMean ? `; did you mean ${extra.didYouMean.join(", ")}?` : ""}`, extra);
}

function suggestions(input: ExplainInput): Partial<Explanation> {
  const names = input.suggest(input.name);
  return names.length > 0 ? { didYouMean: names } : {};
}
