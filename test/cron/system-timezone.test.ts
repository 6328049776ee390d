import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isKnownTimezone } from "../../src/cron/cron-expression.ts";
import { systemTimezone } from "../../src/cron/system-timezone.ts";

const intlZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A private zoneinfo tree with a few zones, so the tests do not depend on the machine's tzdata. */
const root = mkdtempSync(join(tmpdir(), "tp-tz-"));
const zoneinfo = join(root, "zoneinfo");
for (const zone of ["Europe/Berlin", "Asia/Tokyo", "Pacific/Auckland", "America/Argentina/Buenos_Aires", "posix/Europe/Berlin"]) {
  mkdirSync(dirname(join(zoneinfo, zone)), { recursive: true });
  writeFileSync(join(zoneinfo, zone), "TZif");
}
afterAll(() => rmSync(root, { recursive: true, force: true }));

let links = 0;
/** A local-time link (or a plain file, for `null`) pointing at `target`. */
function localtime(target: string | null): string {
  const path = join(root, `localtime-${links++}`);
  if (target === null) writeFileSync(path, "TZif2 copied, not linked");
  else symlinkSync(target, path);
  return path;
}

describe("systemTimezone", () => {
  test("an IANA name in $TZ that the zoneinfo tree has wins, with or without the leading colon", () => {
    expect(systemTimezone({ env: { TZ: "Europe/Berlin" }, zoneinfo })).toBe("Europe/Berlin");
    expect(systemTimezone({ env: { TZ: ":America/Argentina/Buenos_Aires" }, zoneinfo })).toBe("America/Argentina/Buenos_Aires");
  });

  test("UTC spellings come out as ICU reports them", () => {
    expect(systemTimezone({ env: { TZ: "Etc/UTC" }, zoneinfo })).toBe("UTC");
    expect(systemTimezone({ env: { TZ: "UTC" }, zoneinfo })).toBe("UTC");
    expect(systemTimezone({ env: {}, localtime: localtime(`${zoneinfo}/Etc/UTC`), zoneinfo })).toBe("UTC");
  });

  test("without $TZ the /etc/localtime link names the zone; posix/ and right/ copies stand for the plain name", () => {
    expect(systemTimezone({ env: {}, localtime: localtime("/usr/share/zoneinfo/Asia/Tokyo"), zoneinfo })).toBe("Asia/Tokyo");
    expect(systemTimezone({ env: { TZ: "" }, localtime: localtime("../usr/share/zoneinfo/Pacific/Auckland"), zoneinfo })).toBe("Pacific/Auckland");
    expect(systemTimezone({ env: {}, localtime: localtime("/usr/share/zoneinfo/posix/Europe/Berlin"), zoneinfo })).toBe("Europe/Berlin");
    expect(systemTimezone({ env: { TZ: "right/Europe/Berlin" }, zoneinfo })).toBe("Europe/Berlin");
  });

  test("a zone the tree does not have, a POSIX rule, a copied file or a link outside zoneinfo is left to Intl", () => {
    expect(systemTimezone({ env: { TZ: "Europe/Berln" }, zoneinfo })).toBe(intlZone());
    expect(systemTimezone({ env: { TZ: "EST5EDT,M3.2.0,M11.1.0" }, localtime: localtime("/usr/share/zoneinfo/Asia/Tokyo"), zoneinfo })).toBe(intlZone());
    expect(systemTimezone({ env: {}, localtime: localtime(null), zoneinfo })).toBe(intlZone());
    expect(systemTimezone({ env: {}, localtime: localtime("/etc/some/other/file"), zoneinfo })).toBe(intlZone());
    expect(systemTimezone({ env: { TZ: "../../etc/passwd" }, zoneinfo })).toBe(intlZone());
    expect(systemTimezone({ env: { TZ: "Europe/Berlin" }, zoneinfo: join(root, "no-tzdata") })).toBe(intlZone());
  });

  test("whatever the machine's settings, the answer is a zone the scheduler can use", () => {
    for (const tz of ["posix/Europe/Berlin", "Europe/Berln", "EST5EDT", "", "Asia/Tokyo"]) {
      expect(isKnownTimezone(systemTimezone({ env: { TZ: tz } }))).toBe(true);
    }
  });
});
