import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import * as esbuild from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { vendorPlugin } from '../../scripts/vendor-bundles.mjs';

// The bundles (extension core, CLI) load YAML and Ajv on first call, not at load (B5): a static import
// becomes stand-ins that require the vendor bundle when first called, constructed or used with instanceof.
describe('vendor libraries imported statically, loaded on first use', () => {
  const folders: string[] = [];
  afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

  it('loads the vendor bundle only when a stand-in is first used, and behaves as the library', async () => {
    const folder = mkdtempSync(nodePath.join(tmpdir(), 'lazy-vendor-'));
    folders.push(folder);
    mkdirSync(nodePath.join(folder, 'vendor'));
    // A stand-in for dist/vendor/yaml.js that says when it is loaded.
    writeFileSync(
      nodePath.join(folder, 'vendor', 'yaml.js'),
      `globalThis.yamlLoads = (globalThis.yamlLoads ?? 0) + 1;
       class LineCounter { constructor() { this.lines = []; } }
       module.exports = { parse: (text) => ({ parsed: text }), parseDocument: () => ({}), LineCounter, isMap: () => false, isScalar: () => true };`,
    );
    await esbuild.build({
      stdin: {
        contents: `import { parse, LineCounter, isScalar } from 'yaml';
          export const use = () => { const counter = new LineCounter(); return [parse('a: 1'), counter instanceof LineCounter, counter.lines, isScalar()]; };`,
        resolveDir: folder,
        loader: 'js',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: nodePath.join(folder, 'bundle.js'),
      plugins: [vendorPlugin],
      logLevel: 'silent',
    });
    const globals = globalThis as { yamlLoads?: number };
    delete globals.yamlLoads;
    const bundle = createRequire(import.meta.url)(nodePath.join(folder, 'bundle.js')) as { use(): unknown[] };
    expect(globals.yamlLoads).toBeUndefined();
    expect(bundle.use()).toEqual([{ parsed: 'a: 1' }, true, [], true]);
    bundle.use();
    expect(globals.yamlLoads).toBe(1);
  });
});
