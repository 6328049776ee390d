#!/usr/bin/env bun
/**
 * Builds one single-file binary per product tier: `bun run build.ts` builds every tier,
 * `bun run build.ts --tier NAME` one. Writes dist/toolpool-<tier> and dist/manifest.json
 * (tier, features, version, size, sha256 per binary). Any build error fails the whole run.
 * `--release` also writes dist/release/toolpool-<tier>-<os>-<arch>.tar.gz per tier built (a
 * directory holding the binary as `toolpool`, README.md and LICENSE when present) and SHA256SUMS.
 */
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { isTierName, TIERS, type TierName } from "./features/tiers.ts";
import { writeRelease } from "./scripts/release-archives.ts";
import { EMBEDDED_MODULES } from "./src/runtime/embedded-module.ts";
import packageJson from "./package.json" with { type: "json" };

const DIST = join(import.meta.dir, "dist");
const ENTRY = join(import.meta.dir, "src", "main.ts");
/**
 * Embedded beside the main bundle, not in it (src/runtime/embedded-module.ts): each is read only when
 * a feature first needs it, so a daemon that never uses it does not carry its bytecode in memory.
 * At run time one is /$bunfs/root/NAME.js (paths are relative to src/, the entrypoints' common root).
 */
const LAZY_ENTRIES = EMBEDDED_MODULES.map((name) => join(import.meta.dir, "src", `${name}.ts`));

interface ManifestEntry {
  tier: TierName;
  features: readonly string[];
  version: string;
  file: string;
  size: number;
  sha256: string;
  buildMs: number;
}

async function buildTier(tier: TierName): Promise<ManifestEntry> {
  const features = TIERS[tier];
  const outfile = join(DIST, `toolpool-${tier}`);
  const started = performance.now();
  const result = await Bun.build({
    entrypoints: [ENTRY, ...LAZY_ENTRIES],
    compile: {
      outfile,
      // A daemon must not pick up a .env, bunfig.toml or tsconfig.json from whatever directory it
      // happens to be started in.
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
      // A smaller heap: the daemon holds an index and sessions, not large transient data.
      execArgv: ["--smol"],
    },
    features: [...features],
    minify: true,
    bytecode: true,
    format: "esm",
    sourcemap: "none",
    define: {
      TOOLPOOL_TIER: JSON.stringify(tier),
      TOOLPOOL_VERSION: JSON.stringify(packageJson.version),
      TOOLPOOL_FEATURES: JSON.stringify(features),
    },
    throw: false,
  });
  if (!result.success) {
    const details = result.logs.map((log) => `  ${log.message}`).join("\n");
    throw new Error(`build of tier ${tier} failed:\n${details}`);
  }
  const buildMs = Math.round(performance.now() - started);
  const bytes = await readFile(outfile);
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(bytes);
  return {
    tier,
    features,
    version: packageJson.version,
    file: `toolpool-${tier}`,
    size: (await stat(outfile)).size,
    sha256: hasher.digest("hex"),
    buildMs,
  };
}

async function main() {
  const { values } = parseArgs({ options: { tier: { type: "string" }, release: { type: "boolean", default: false } }, strict: true });
  const requested = values.tier;
  if (requested !== undefined && !isTierName(requested)) {
    throw new Error(`unknown tier "${requested}"; tiers are: ${Object.keys(TIERS).join(", ")}`);
  }
  const tiers: TierName[] = requested ? [requested] : (Object.keys(TIERS) as TierName[]);
  await mkdir(DIST, { recursive: true });
  const manifestPath = join(DIST, "manifest.json");
  const previous = await readManifest(manifestPath);
  const entries = new Map(previous.map((entry) => [entry.tier, entry]));
  for (const tier of tiers) {
    process.stderr.write(`building ${tier} [${TIERS[tier].join(", ") || "no gated features"}] ... `);
    const entry = await buildTier(tier);
    entries.set(tier, entry);
    process.stderr.write(`${(entry.size / 1e6).toFixed(1)} MB in ${entry.buildMs} ms\n`);
  }
  await buildNodeClient();
  const manifest = [...entries.values()].sort((a, b) => a.tier.localeCompare(b.tier));
  await writeFile(manifestPath, `${JSON.stringify({ binaries: manifest }, null, 2)}\n`);
  process.stderr.write(`wrote ${manifestPath}\n`);
  if (values.release) await writeRelease(DIST, tiers, (line) => process.stderr.write(`${line}\n`));
}

/** The client library as plain ESM for Node (and any bundler): dist/client/client.js. */
async function buildNodeClient(): Promise<void> {
  const result = await Bun.build({
    entrypoints: [join(import.meta.dir, "src", "client", "client.ts")],
    outdir: join(DIST, "client"),
    target: "node",
    format: "esm",
    throw: false,
  });
  if (!result.success) throw new Error(`build of the Node client failed:\n${result.logs.map((log) => `  ${log.message}`).join("\n")}`);
  process.stderr.write("built dist/client/client.js (Node ESM client)\n");
}

async function readManifest(path: string): Promise<ManifestEntry[]> {
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as { binaries?: ManifestEntry[] };
    return parsed.binaries ?? [];
  } catch {
    return [];
  }
}

await main().catch((error: unknown) => {
  process.stderr.write(`\nbuild failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
