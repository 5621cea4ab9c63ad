/**
 * Error names survive the production build's minifier: the engine's errors bundled by esbuild with
 * `minify: true` (as scripts/build.mjs builds with --production) keep the names users and traces read.
 */
import { runInNewContext } from 'node:vm';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';

async function minifiedErrors(): Promise<Record<string, new (...args: unknown[]) => Error>> {
  const built = await esbuild.build({
    stdin: {
      contents: "export * from './src/engine/errors.ts';",
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'cjs',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const module = { exports: {} as Record<string, new (...args: unknown[]) => Error> };
  runInNewContext(built.outputFiles[0]!.text, { module, exports: module.exports, require, Error, Object, Symbol, Set, Map, RegExp });
  return module.exports;
}

describe('error names in a minified build', () => {
  it('are the classes’ own names, not the letters the minifier gives them', async () => {
    const errors = await minifiedErrors();
    expect(new errors.ConfigurationError!('bad flag').name).toBe('ConfigurationError');
    expect(new errors.WorkspaceError!('outside-workspace', 'outside the folder').name).toBe('WorkspaceError');
    expect(new errors.ProviderError!('auth', 'no key', { provider: 'anthropic' }).name).toBe('ProviderError');
    expect(new errors.StoppedError!({ kind: 'user' }).name).toBe('StoppedError');
  });
});
