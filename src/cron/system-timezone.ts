/**
 * The machine's time zone as an IANA name, found the way ICU itself finds it — `$TZ`, then the
 * `/etc/localtime` link into the zoneinfo tree — so that a daemon with no cron jobs never loads
 * the runtime's ICU data (`Intl.DateTimeFormat` costs about 5 MB resident). Anything unusual
 * (a POSIX rule in `$TZ`, a copied rather than linked `/etc/localtime`) is left to Intl.
 */
import { readlinkSync } from "node:fs";

/** `Area/Location[/More]` or a bare `UTC`-style name; no path tricks. */
const IANA_NAME = /^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+)*$/;
const ZONEINFO_LINK = /\/zoneinfo\/(.+)$/;
/** Names ICU reports as `UTC`. */
const UTC_ALIASES = new Set(["UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu", "Etc/GMT", "GMT"]);

export function systemTimezone(env: NodeJS.ProcessEnv = process.env, localtime = "/etc/localtime"): string {
  // A set $TZ decides, even when only Intl can read it; /etc/localtime counts only without one.
  const candidate = env.TZ ? fromEnv(env.TZ) : fromLink(localtime);
  if (candidate !== undefined) return UTC_ALIASES.has(candidate) ? "UTC" : candidate;
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
