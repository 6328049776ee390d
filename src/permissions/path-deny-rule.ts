/** A deny rule that governs paths: what it forbids (reading or writing) and its pattern as written. */
export interface PathDenyRule {
  kind: "read" | "write";
  glob: string;
  source: string;
}
