/**
 * A form the server asks for (`elicitation/create`, mode form) may give each field a `default`
 * (SEP-1034). A person accepting the form takes the defaults of the fields they leave alone, so when
 * the caller's answer accepts without a value for such a field, the pool fills in the server's
 * default before the answer goes back: a host that showed the bare question, or a socket client that
 * answered only what it changed, still answers the form the person saw. Only top-level fields exist
 * in an elicitation schema; a value the caller did give is never replaced. Only a default a form can
 * show (a string, a finite number, a boolean) is filled in: an object, array or null default is a
 * value the person never saw, and is left out. Field names are the server's, so none is special
 * ("__proto__", "constructor" are fields like any other).
 */

/** A form answer with the omitted fields' defaults filled in; any other answer as it was. */
export function withElicitationDefaults(params: Record<string, unknown>, answer: Record<string, unknown>): Record<string, unknown> {
  if (answer.action !== "accept") return answer;
  const schema = params.requestedSchema;
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : undefined;
  if (!properties) return answer;
  const content = isObject(answer.content) ? answer.content : {};
  const filled: Record<string, unknown> = Object.assign(Object.create(null), content);
  let added = false;
  for (const [field, property] of Object.entries(properties)) {
    if (Object.hasOwn(filled, field) || !isObject(property) || !isShownDefault(property.default)) continue;
    filled[field] = property.default;
    added = true;
  }
  return added ? { ...answer, content: filled } : answer;
}

function isShownDefault(value: unknown): boolean {
  return typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
