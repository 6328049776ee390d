/**
 * The one error base the layers below the wire throw when a request cannot be served as asked. It
 * names what kind of fault it is, never a JSON-RPC code: the dispatcher maps kinds to codes, so the
 * core and sessions stay transport-agnostic and a client fault is never reported as an internal one.
 */
export type FaultKind = "invalid-params" | "not-found";

export class RequestFault extends Error {
  constructor(
    readonly kind: FaultKind,
    message: string,
  ) {
    super(message);
    this.name = "RequestFault";
  }
}

/** A session setting that cannot be used: the field is named in the message. */
export class SettingsError extends RequestFault {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super("invalid-params", `field "${field}": ${detail}`);
    this.name = "SettingsError";
  }
}
