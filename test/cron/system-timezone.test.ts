import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemTimezone } from "../../src/cron/system-timezone.ts";

const intlZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function withLocaltime(target: string | null, run: (path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "tp-tz-"));
  try {
    const path = join(dir, "localtime");
    if (target === null) writeFileSync(path, "TZif2 copied, not linked");
    else symlinkSync(target, path);
    run(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("systemTimezone", () => {
  test("an IANA name in $TZ wins, with or without the leading colon", () => {
    expect(systemTimezone({ TZ: "Europe/Berlin" }, "/nonexistent")).toBe("Europe/Berlin");
    expect(systemTimezone({ TZ: ":America/Argentina/Buenos_Aires" }, "/nonexistent")).toBe("America/Argentina/Buenos_Aires");
  });

  test("UTC spellings come out as ICU reports them", () => {
    expect(systemTimezone({ TZ: "Etc/UTC" }, "/nonexistent")).toBe("UTC");
    expect(systemTimezone({ TZ: "UTC" }, "/nonexistent")).toBe("UTC");
    withLocaltime("/usr/share/zoneinfo/Etc/UTC", (path) => expect(systemTimezone({}, path)).toBe("UTC"));
  });

  test("without $TZ the /etc/localtime link names the zone", () => {
    withLocaltime("/usr/share/zoneinfo/Asia/Tokyo", (path) => expect(systemTimezone({}, path)).toBe("Asia/Tokyo"));
    withLocaltime("../usr/share/zoneinfo/Pacific/Auckland", (path) => expect(systemTimezone({ TZ: "" }, path)).toBe("Pacific/Auckland"));
  });

  test("a POSIX rule in $TZ, a copied file or a link outside zoneinfo is left to Intl", () => {
    withLocaltime("/usr/share/zoneinfo/Asia/Tokyo", (path) => expect(systemTimezone({ TZ: "EST5EDT,M3.2.0,M11.1.0" }, path)).toBe(intlZone()));
    withLocaltime(null, (path) => expect(systemTimezone({}, path)).toBe(intlZone()));
    withLocaltime("/etc/some/other/file", (path) => expect(systemTimezone({}, path)).toBe(intlZone()));
    expect(systemTimezone({ TZ: "../../etc/passwd" }, "/nonexistent")).toBe(intlZone());
  });
});
