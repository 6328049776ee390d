/**
 * Release archives, the way single-binary tools ship: per tier, toolpool-<tier>-<os>-<arch>.tar.gz
 * holding a directory with the binary as `toolpool` (plus README.md and LICENSE when present), and
 * one SHA256SUMS for all of them. Called by `build.ts --release`.
 */
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

const REPO_ROOT = join(import.meta.dir, "..");

/** `tar` is a build-time tool here (every Linux and macOS has one); the product never needs it. */
export async function writeRelease(dist: string, tiers: readonly string[], log: (line: string) => void = () => {}, platform = `${process.platform}-${process.arch}`): Promise<string[]> {
  const releaseDir = join(dist, "release");
  await mkdir(releaseDir, { recursive: true });
  // A release of one tier keeps the sums of the other archives already there.
  const sumsPath = join(releaseDir, "SHA256SUMS");
  const built = new Set(tiers.map((tier) => `toolpool-${tier}-${platform}.tar.gz`));
  const sums = (await readFile(sumsPath, "utf8").catch(() => ""))
    .split("\n")
    .filter((line) => /^[0-9a-f]{64}  \S+$/.test(line) && !built.has(line.slice(66)));
  for (const tier of tiers) {
    const name = `toolpool-${tier}-${platform}`;
    const staging = join(releaseDir, name);
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging);
    await copyFile(join(dist, `toolpool-${tier}`), join(staging, "toolpool"));
    for (const extra of ["README.md", "LICENSE"]) {
      await copyFile(join(REPO_ROOT, extra), join(staging, extra)).catch(() => {});
    }
    const archive = `${name}.tar.gz`;
    const tar = Bun.spawn(["tar", "-czf", archive, name], { cwd: releaseDir, stdout: "ignore", stderr: "pipe" });
    const [code, stderr] = await Promise.all([tar.exited, new Response(tar.stderr).text()]);
    await rm(staging, { recursive: true, force: true });
    if (code !== 0) throw new Error(`tar failed for ${archive} (exit ${code}): ${stderr.trim()}`);
    const hasher = new Bun.CryptoHasher("sha256");
    hasher.update(await readFile(join(releaseDir, archive)));
    sums.push(`${hasher.digest("hex")}  ${archive}`);
    log(`wrote ${join(releaseDir, archive)}`);
  }
  // The format `sha256sum -c SHA256SUMS` and `shasum -a 256 -c SHA256SUMS` check.
  await writeFile(sumsPath, `${sums.sort((a, b) => a.slice(66).localeCompare(b.slice(66))).join("\n")}\n`);
  log(`wrote ${sumsPath}`);
  return sums;
}

