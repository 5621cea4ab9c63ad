import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import * as esbuild from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { reExportOncePlugin } from '../../scripts/re-export-once.mjs';

// The core imports `vscode` (and `node:path`) in dozens of modules; bundled, each import copied every
// property of the module (B5). With the plugin they share one re-export, and behave as before.
describe('external modules re-exported once in the core', () => {
  const folders: string[] = [];
  afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

  it('gives every importer the same live exports, the default as Node does, without a copy per importer', async () => {
    const folder = mkdtempSync(nodePath.join(tmpdir(), 're-export-once-'));
    folders.push(folder);
    // A stand-in for VS Code's API module, which counts how often it is loaded.
    mkdirSync(nodePath.join(folder, 'node_modules', 'vscode'), { recursive: true });
    writeFileSync(
      nodePath.join(folder, 'node_modules', 'vscode', 'index.js'),
      `globalThis.vscodeLoads = (globalThis.vscodeLoads ?? 0) + 1;
       module.exports = { window: { name: 'first' }, version: '1.0', Position: class Position {} };`,
    );
    writeFileSync(nodePath.join(folder, 'a.js'), `import * as vscode from 'vscode'; export const windowOf = () => vscode.window;`);
    writeFileSync(
      nodePath.join(folder, 'b.js'),
      `import { window, Position } from 'vscode'; import path from 'node:path'; import * as paths from 'node:path'; import { join } from 'node:path';
       export const windowOf = () => window;
       export const position = () => new Position();
       export const joined = () => [path.join('a', 'b'), paths.join('c', 'd'), join('e', 'f')];
       export const pathDefault = () => path;`,
    );
    const outfile = nodePath.join(folder, 'bundle.js');
    await esbuild.build({
      stdin: { contents: `export * as a from './a.js'; export * as b from './b.js';`, resolveDir: folder, loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile,
      external: ['vscode'],
      plugins: [reExportOncePlugin],
      logLevel: 'silent',
    });
    const output = readFileSync(outfile, 'utf8');
    expect(output).not.toMatch(/__toESM\(require\("(vscode|node:path)"\)/);
    expect(output.match(/__reExport\(/g)).toHaveLength(2);

    const globals = globalThis as { vscodeLoads?: number };
    delete globals.vscodeLoads;
    type Side = { windowOf(): { name: string } };
    const bundle = createRequire(outfile)(outfile) as {
      a: Side;
      b: Side & { position(): object; joined(): unknown[]; pathDefault(): unknown };
    };
    const real = createRequire(outfile)('vscode') as { window: { name: string } };
    expect(bundle.a.windowOf()).toBe(real.window);
    expect(bundle.b.windowOf()).toBe(real.window);
    expect(bundle.b.position().constructor.name).toBe('Position');
    expect(bundle.b.joined()).toEqual(['a/b', 'c/d', 'e/f']);
    expect(bundle.b.pathDefault()).toBe(createRequire(outfile)('node:path'));
    expect(globals.vscodeLoads).toBe(1);
    // Read through, as a namespace import was before: a later change to the real module is seen.
    real.window = { name: 'second' };
    expect(bundle.a.windowOf().name).toBe('second');
  });
});
