/**
 * The operator's rules are a ceiling: what a session asks for is merged under the config's
 * permissions, never over them. The merge, exactly:
 *
 * - deny: the config's deny rules, then the session's. A session can add deny rules; an empty or
 *   different list removes none of the operator's.
 * - mode: the narrower of the two, in the order readOnly < default < bypass. A session that asks for
 *   a wider mode than the config's is refused (not silently narrowed, so it never believes it has
 *   rights it has not). Only a config that sets `permissions.allowSessionBypass: true` lets a session
 *   choose any mode, `bypass` included; the operator's deny rules still apply in it.
 * - allow: the config's allow list stays the session's `allow`; the session's own list becomes
 *   `sessionAllow`, a second list. In default mode a call that needs an allow rule needs one from
 *   every non-empty list, so a session's rule can only narrow: it never covers what the operator
 *   denies or leaves uncovered.
 * - no `permissions` from the session: the config's, as they are.
 *
 * Re-opening a session (by its id, from any connection) can only narrow further: its deny rules are
 * kept and the new ones added, its mode can narrow but not widen, and a session allow list it set
 * cannot be replaced (`narrowReopenRequest`). What the operator set is never lost. A config reload merges each open session's own
 * choices (kept as `sessionMode`, `sessionAllow`, `sessionDeny`) under the new config.
 */
import type { PermissionMode, PermissionSettings } from "./rules.ts";

/** The config's `permissions`, as the operator wrote them. */
export interface OperatorPermissions {
  mode: PermissionMode;
  allow: readonly string[];
  deny: readonly string[];
  /** Whether a session may choose `bypass` mode; absent means no. */
  allowSessionBypass?: boolean | undefined;
}

/** What a session may send; every field is optional and only narrows. */
export interface SessionPermissionRequest {
  mode?: PermissionMode | undefined;
  allow?: readonly string[] | undefined;
  deny?: readonly string[] | undefined;
}

/** A session asked for more than the operator allows; `field` names the request field. */
export class PermissionCeilingError extends Error {
  override readonly name = "PermissionCeilingError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export const OPERATOR_DEFAULTS: OperatorPermissions = { mode: "default", allow: [], deny: [] };

const WIDTH: Record<PermissionMode, number> = { readOnly: 0, default: 1, bypass: 2 };

export function applyPermissionCeiling(
  operator: OperatorPermissions,
  request: SessionPermissionRequest | undefined,
): PermissionSettings {
  const base: PermissionSettings = { mode: operator.mode, allow: [...operator.allow], deny: [...operator.deny] };
  if (!request) return base;
  return {
    mode: narrowedMode(operator, request.mode),
    allow: base.allow,
    deny: unique([...operator.deny, ...(request.deny ?? [])]),
    ...(request.allow !== undefined && request.allow.length > 0 && { sessionAllow: unique(request.allow) }),
    ...(request.deny !== undefined && request.deny.length > 0 && { sessionDeny: unique(request.deny) }),
    ...(request.mode !== undefined && { sessionMode: request.mode }),
  };
}

/**
 * After a config reload: an open session's own choices merged under the new config, so the
 * operator's new rules apply to it at once. A mode the new config no longer allows is narrowed to
 * the config's (a reload cannot refuse a session that is already open).
 */
export function reapplyPermissionCeiling(operator: OperatorPermissions, current: PermissionSettings): PermissionSettings {
  const request: SessionPermissionRequest = { mode: current.sessionMode, allow: current.sessionAllow, deny: current.sessionDeny };
  try {
    return applyPermissionCeiling(operator, request);
  } catch (error) {
    if (!(error instanceof PermissionCeilingError)) throw error;
    const { sessionMode: _refused, ...narrowed } = applyPermissionCeiling(operator, { ...request, mode: undefined });
    return narrowed;
  }
}

/**
 * The request of a session being re-opened, merged with what the session already chose: whoever
 * holds its id may tighten it, never loosen it (a client that narrowed itself stays narrowed).
 */
export function narrowReopenRequest(previous: PermissionSettings, request: SessionPermissionRequest): SessionPermissionRequest {
  const before = previous.sessionMode;
  if (before !== undefined && request.mode !== undefined && WIDTH[request.mode] > WIDTH[before]) {
    throw new PermissionCeilingError("permissions.mode", `"${request.mode}" is wider than this session's mode "${before}"; a re-opened session may only narrow it`);
  }
  const sameAllow = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((rule) => b.includes(rule));
  if (previous.sessionAllow !== undefined && request.allow !== undefined && !sameAllow(previous.sessionAllow, request.allow)) {
    throw new PermissionCeilingError("permissions.allow", "this session already has its own allow list; a re-opened session cannot replace it (open a new session instead)");
  }
  const mode = request.mode ?? before;
  const allow = previous.sessionAllow ?? request.allow;
  return {
    ...(mode !== undefined && { mode }),
    ...(allow !== undefined && { allow }),
    deny: unique([...(previous.sessionDeny ?? []), ...(request.deny ?? [])]),
  };
}

function narrowedMode(operator: OperatorPermissions, asked: PermissionMode | undefined): PermissionMode {
  if (asked === undefined) return operator.mode;
  // The operator who lets sessions choose the widest mode lets them choose any.
  if (operator.allowSessionBypass === true) return asked;
  if (asked === "bypass" && operator.mode !== "bypass") {
    throw new PermissionCeilingError(
      "permissions.mode",
      'a session may not choose "bypass": the daemon\'s config does not set permissions.allowSessionBypass',
    );
  }
  if (WIDTH[asked] > WIDTH[operator.mode]) {
    throw new PermissionCeilingError(
      "permissions.mode",
      `"${asked}" is wider than the daemon's mode "${operator.mode}"; a session may only narrow it`,
    );
  }
  return asked;
}

function unique(rules: readonly string[]): string[] {
  return [...new Set(rules)];
}
