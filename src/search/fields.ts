/** The indexed fields of a tool, in posting-list order. A field id fits in FIELD_BITS bits (FIELD_COUNT ≤ 2^FIELD_BITS). */
export const FIELDS = [
  "name",
  "alias",
  "hint",
  "description",
  "parameterName",
  "parameterDescription",
  "server",
  "serverDescription",
  /** String `enum` values of parameters: a filter value ("open", "closed") is weak evidence of what a tool does. */
  "parameterValue",
] as const;

export type FieldName = (typeof FIELDS)[number];

export const FIELD_COUNT = FIELDS.length;
export const FIELD_BITS = 4;

export const FIELD_ID: Readonly<Record<FieldName, number>> = Object.fromEntries(
  FIELDS.map((field, id) => [field, id]),
) as Record<FieldName, number>;

/** Per-field term ids of one document in text order, indexed by field id. */
export type FieldTerms = number[][];

/** The stemmed term of "reverse", "reversed", "reversing". */
export const REVERSE_TERM = "revers";
