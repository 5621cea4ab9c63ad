/**
 * Loads the extension's core (dist/extension-core.js) with V8's code cache, kept in the extension's global
 * storage: compiling the core's 0.8 MB of source was the largest part of its first use in every window
 * (B5 in docs/performance.md); with the cache, V8 reads the compiled code back instead. The first window
 * after an install or an update compiles as before and leaves the cache for the next ones.
 *
 * The cache is keyed by the core's size and modification time and by the V8 version, so an updated core
 * or VS Code never reads another build's code; V8 checks it again and rejects data it cannot use (then
 * the core compiles as usual). Anything going wrong with the cache only costs the time it would save.
 * Only the production bundle loads this way (`AGENT_TEAM_CORE_CODE_CACHE`, set by scripts/build.mjs);
 * from source (tests) the core is imported as usual.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as nodePath from 'node:path';
import { Script } from 'node:vm';
import type * as Core from './extension-core.js';

declare const AGENT_TEAM_CORE_CODE_CACHE: boolean | undefined;

export interface LoadedCore {
  core: typeof Core;
  /** Writes the cache when there was none to use; call once the core has started, so it holds what starting compiled. */
  saveCodeCache(): void;
}

/** Loads the core; `cacheDirectory` undefined (storage that is not on disk) loads it without a cache. */
export async function importCore(cacheDirectory: string | undefined): Promise<LoadedCore> {
  if (typeof AGENT_TEAM_CORE_CODE_CACHE !== 'boolean' || !AGENT_TEAM_CORE_CODE_CACHE || cacheDirectory === undefined) {
    return { core: await import('./extension-core.js'), saveCodeCache: () => undefined };
  }
  return requireWithCodeCache(nodePath.join(__dirname, 'extension-core.js'), nodePath.join(cacheDirectory, 'code-cache'));
}

/** Runs the CommonJS file `file` as `require` would, its compiled code cached in `directory`. Exported for its tests. */
export function requireWithCodeCache<Exports = typeof Core>(
  file: string,
  directory: string,
): { core: Exports; saveCodeCache(): void; usedCache: boolean } {
  const source = readFileSync(file, 'utf8');
  const { size, mtimeMs } = statSync(file);
  const cacheName = `extension-core-${size}-${Math.round(mtimeMs)}-v8-${process.versions.v8}.bin`;
  const cacheFile = nodePath.join(directory, cacheName);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet: this window compiles, and writes one once the core has started.
  }
  // The wrapper Node itself puts around a CommonJS file, so the core runs exactly as `require` would run it.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} as Exports };
  const run = script.runInThisContext() as (...parameters: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, nodePath.dirname(file));
  const needsWriting = cachedData === undefined || script.cachedDataRejected === true;
  return {
    core: module.exports,
    usedCache: !needsWriting,
    saveCodeCache: () => {
      if (needsWriting) writeCodeCache(directory, cacheName, () => script.createCachedData());
    },
  };
}

function writeCodeCache(directory: string, cacheName: string, data: () => Buffer): void {
  try {
    mkdirSync(directory, { recursive: true });
    // Other builds' caches are of no further use.
    for (const name of readdirSync(directory)) if (name !== cacheName) rmSync(nodePath.join(directory, name), { force: true });
    // Written aside, then renamed: another window reading meanwhile sees the whole cache or none.
    const partial = nodePath.join(directory, `${cacheName}.${process.pid}.partial`);
    writeFileSync(partial, data());
    renameSync(partial, nodePath.join(directory, cacheName));
  } catch {
    // A cache that cannot be written costs the next window the compile, nothing else.
  }
}
