/**
 * The model gate: models on a negative list do not get native tool references (`defer_loading` +
 * `tool_reference`). A negative list, so a new model works by default; matched as a case-insensitive
 * substring of the model id, so `haiku` covers every Haiku release. The list is a runtime flag.
 */

export const DEFAULT_UNSUPPORTED_MODELS: readonly string[] = ["haiku"];

export function supportsToolReference(
  model: string,
  unsupported: readonly string[] = DEFAULT_UNSUPPORTED_MODELS,
): boolean {
  const id = model.toLowerCase();
  return !unsupported.some((entry) => entry.trim() !== "" && id.includes(entry.trim().toLowerCase()));
}
