/**
 * A session's workspace roots held open (runtime/root-pins.ts): pinned when the session opens (or
 * re-opens with new roots), released when it is evicted. Pinned before the session changes, so a
 * root that cannot be opened refuses the request and leaves the session as it was.
 */
import { RootPinError, type PinnedRoot, type RootPins } from "../runtime/root-pins.ts";
import { SettingsError } from "./settings-error.ts";
import type { Session } from "./session.ts";

/** Pins these roots, or throws SettingsError naming the field. */
export function pinRoots(pins: RootPins, roots: readonly string[]): PinnedRoot[] {
  try {
    return pins.pinAll(roots);
  } catch (error) {
    if (error instanceof RootPinError) throw new SettingsError("workspaceRoots", error.message);
    throw error;
  }
}

/** Gives the session its new pins and lets go of the ones it held. */
export function holdRoots(pins: RootPins, session: Session, pinned: readonly PinnedRoot[]): void {
  const previous = session.rootPins;
  session.rootPins = pinned;
  if (previous) pins.releaseAll(previous);
}

/** The session is gone: its roots are let go. */
export function releaseRoots(pins: RootPins, session: Session): void {
  if (session.rootPins) pins.releaseAll(session.rootPins);
  session.rootPins = undefined;
}
