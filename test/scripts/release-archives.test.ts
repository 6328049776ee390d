import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeRelease } from "../../scripts/release-archives.ts";

async function run(argv: string[], cwd: string) {
  const child = Bun.spawn(argv, { cwd, stdout: "pipe", stderr: "pipe" });
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return { code, stdout };
}

describe("build.ts --release archives", () => {
  test("one tar.gz per tier holding the binary as toolpool, and a SHA256SUMS that sha256sum -c accepts", async () => {
    const dist = mkdtempSync(join(tmpdir(), "toolpool-test-dist-"));
    for (const tier of ["lite", "pro"]) writeFileSync(join(dist, `toolpool-${tier}`), `#!/bin/sh\necho ${tier}\n`, { mode: 0o755 });
    const sums = await writeRelease(dist, ["pro", "lite"], () => {}, "linux-x64");
    const release = join(dist, "release");
    expect(sums.map((line) => line.slice(66))).toEqual(["toolpool-lite-linux-x64.tar.gz", "toolpool-pro-linux-x64.tar.gz"]);
    expect(readFileSync(join(release, "SHA256SUMS"), "utf8")).toBe(`${sums.join("\n")}\n`);
    // What users run to check a download (macOS has shasum instead of sha256sum).
    const check = Bun.which("sha256sum") ? ["sha256sum", "-c", "SHA256SUMS"] : ["shasum", "-a", "256", "-c", "SHA256SUMS"];
    expect(await run(check, release)).toEqual({ code: 0, stdout: "toolpool-lite-linux-x64.tar.gz: OK\ntoolpool-pro-linux-x64.tar.gz: OK\n" });
    const listing = await run(["tar", "tzf", "toolpool-pro-linux-x64.tar.gz"], release);
    expect(listing.stdout.split("\n").filter(Boolean).sort()).toEqual(["toolpool-pro-linux-x64/", "toolpool-pro-linux-x64/README.md", "toolpool-pro-linux-x64/toolpool"]);
    const unpacked = join(dist, "unpacked");
    mkdirSync(unpacked);
    await run(["tar", "xzf", join(release, "toolpool-pro-linux-x64.tar.gz")], unpacked);
    expect(await run([join(unpacked, "toolpool-pro-linux-x64", "toolpool")], unpacked)).toEqual({ code: 0, stdout: "pro\n" });
    // Releasing one tier again keeps the other tier's sum.
    writeFileSync(join(dist, "toolpool-pro"), "#!/bin/sh\necho pro2\n", { mode: 0o755 });
    const again = await writeRelease(dist, ["pro"], () => {}, "linux-x64");
    expect(again[0]).toBe(sums[0]);
    expect(again[1]).not.toBe(sums[1]);
  });
});
