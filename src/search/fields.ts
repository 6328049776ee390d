/** The indexed fields of a tool, in posting-list order. A field id fits in FIELD_BITS bits. */
export const FIELDS = [
  "name",
  "alias",
  "hint",
  "description",
  "parameterName",
  "parameterDescription",
  "server",
  "serverDescription",
] as const;

export type FieldName = (typeof FIELDS)[number];

export const FIELD_COUNT = FIELDS.length;
export const FIELD_BITS = 3;

export const FIELD_ID: Readonly<Record<FieldName, number>> = Object.fromEntries(
  FIELDS.map((field, id) => [field, id]),
) as Record<FieldName, number>;

/** Per-field term ids of one document in text order, indexed by field id. */
export type FieldTerms = number[][];
