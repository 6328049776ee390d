/**
 * The machine's time zone as an IANA name, read from the same places ICU reads it — `$TZ`, then
 * the `/etc/localtime` link into the zoneinfo tree — so that a daemon with no cron jobs never
 * loads the runtime's ICU data (`Intl.DateTimeFormat` costs about 5 MB resident). A name is taken
 * only when the system's zoneinfo tree has it (the `posix/` and `right/` copies stand for the
 * plain name); anything else — a POSIX rule in `$TZ`, a misspelt zone, a copied rather than
 * linked `/etc/localtime`, a machine without tzdata — is left to Intl, so the scheduler never
 * holds a zone it cannot use. Aliases (`US/Pacific`) are kept as written; both spellings schedule
 * alike.
 */
import { existsSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/** `Area/Location[/More]` or a bare `UTC`-style name; no path tricks. */
const IANA_NAME = /^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+)*$/;
const ZONEINFO_LINK = /\/zoneinfo\/(.+)$/;
/** The leap-second and POSIX copies of the tree: `posix/Europe/Berlin` is `Europe/Berlin`. */
const VARIANT_PREFIX = /^(?:posix|right)\//;
/** Names ICU reports as `UTC`. */
const UTC_ALIASES: ReadonlySet<string> = new Set(["UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu", "Etc/GMT", "GMT"]);

export interface TimezoneSources {
  env?: NodeJS.ProcessEnv;
  /** The local-time link; `/etc/localtime`. */
  localtime?: string;
  /** The zoneinfo tree names are checked against; `$TZDIR`, else `/usr/share/zoneinfo`. */
  zoneinfo?: string;
}

export function systemTimezone(sources: TimezoneSources = {}): string {
  const env = sources.env ?? process.env;
  const zoneinfo = sources.zoneinfo ?? (env.TZDIR || "/usr/share/zoneinfo");
  // A set $TZ decides, even when only Intl can read it; /etc/localtime counts only without one.
  const candidate = env.TZ ? fromEnv(env.TZ) : fromLink(sources.localtime ?? "/etc/localtime");
  if (candidate !== undefined) {
    const name = candidate.replace(VARIANT_PREFIX, "");
    if (UTC_ALIASES.has(name)) return "UTC";
    if (existsSync(join(zoneinfo, name))) return name;
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function fromEnv(tz: string): string | undefined {
  const name = tz.startsWith(":") ? tz.slice(1) : tz;
  // A bare word without a slash is most often a POSIX rule ("EST5EDT"); only UTC names are taken.
  if (!IANA_NAME.test(name) || (!name.includes("/") && !UTC_ALIASES.has(name))) return undefined;
  return name;
}

function fromLink(path: string): string | undefined {
  try {
    const name = ZONEINFO_LINK.exec(readlinkSync(path))?.[1];
    return name !== undefined && IANA_NAME.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}
