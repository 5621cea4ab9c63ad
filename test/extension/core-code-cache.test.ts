import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireWithCodeCache } from '../../src/extension/core-code-cache.js';

// The production core is loaded this way (V8's code cache in the global storage, B5): a small CommonJS
// file stands in for it, since what matters is what the loader does with any file.
describe('the core loaded with a code cache', () => {
  const folders: string[] = [];
  const scratch = () => {
    const folder = mkdtempSync(nodePath.join(tmpdir(), 'core-code-cache-'));
    folders.push(folder);
    return folder;
  };
  afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

  const coreSource = (answer: number) =>
    `const path = require('node:path');\nexports.answer = () => ${answer};\nexports.where = () => [path.basename(__filename), this === module.exports];\n`;

  it('runs the file as require would, writes the cache once started, and the next window uses it', () => {
    const folder = scratch();
    const file = nodePath.join(folder, 'core.js');
    writeFileSync(file, coreSource(42));
    const cache = nodePath.join(folder, 'cache');

    const first = requireWithCodeCache<{ answer(): number; where(): [string, boolean] }>(file, cache);
    expect(first.core.answer()).toBe(42);
    expect(first.core.where()).toEqual(['core.js', true]);
    expect(first.usedCache).toBe(false);
    first.saveCodeCache();
    expect(readdirSync(cache)).toHaveLength(1);

    const second = requireWithCodeCache<{ answer(): number }>(file, cache);
    expect(second.usedCache).toBe(true);
    expect(second.core.answer()).toBe(42);
  });

  it('never runs another build’s code: a changed core compiles afresh and replaces the old cache', () => {
    const folder = scratch();
    const file = nodePath.join(folder, 'core.js');
    const cache = nodePath.join(folder, 'cache');
    writeFileSync(file, coreSource(1));
    requireWithCodeCache(file, cache).saveCodeCache();
    const before = readdirSync(cache);

    writeFileSync(file, coreSource(2000)); // another build: another size
    const updated = requireWithCodeCache<{ answer(): number }>(file, cache);
    expect(updated.usedCache).toBe(false);
    expect(updated.core.answer()).toBe(2000);
    updated.saveCodeCache();
    const after = readdirSync(cache);
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });

  it('a cache that cannot be used or written only costs the compile', () => {
    const folder = scratch();
    const file = nodePath.join(folder, 'core.js');
    writeFileSync(file, coreSource(7));
    const blocked = nodePath.join(folder, 'not-a-folder');
    writeFileSync(blocked, 'a file where the cache folder would be');
    const loaded = requireWithCodeCache<{ answer(): number }>(file, blocked);
    expect(loaded.core.answer()).toBe(7);
    expect(() => loaded.saveCodeCache()).not.toThrow();
  });
});
