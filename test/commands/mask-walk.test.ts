/**
 * The mask's walk made while git lists the ignored files (overlay/mask-walk.ts) finds exactly what the
 * walk made after the list finds, whenever the list comes: before the walk starts, or only after its
 * first pass (the test releases it). Nothing below an ignored folder is kept; a dependency folder the
 * list does not skip is walked all the same.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walkAlongside } from '../../src/engine/commands/overlay/mask-walk.js';

let top: string;

beforeEach(async () => {
  top = await mkdtemp(path.join(tmpdir(), 'agent-team-mask-walk-'));
  for (const folder of [
    'src/deep',
    'dist/a/b',
    'dist/nested/.git',
    'node_modules/pkg/node_modules',
    'tools/node_modules/x',
    'sub/.git',
    '.git/objects',
  ])
    await mkdir(path.join(top, folder), { recursive: true });
  for (const file of ['.gitignore', 'src/.gitignore', 'dist/a/.gitignore', 'tools/node_modules/x/.gitignore', 'src/deep/file.ts'])
    await writeFile(path.join(top, file), '');
});

afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

/** `dist` and the top's `node_modules` ignored; `tools/node_modules` not. */
const skipped: ReadonlySet<string> = new Set(['.git', 'dist', 'node_modules']);

const expectedWatched = [
  '',
  '.gitignore',
  'src',
  'src/.gitignore',
  'src/deep',
  'sub',
  'tools',
  'tools/node_modules',
  'tools/node_modules/x',
  'tools/node_modules/x/.gitignore',
];

function shape(found: { watched: Map<string, string>; nestedGit: string[] }) {
  return {
    watched: [...found.watched.keys()].map((absolute) => path.relative(top, absolute)).sort(),
    nestedGit: [...found.nestedGit].sort(),
  };
}

describe('the walk alongside ls-files', () => {
  it('finds the same when the list is known from the start', async () => {
    expect(shape(await walkAlongside(top, Promise.resolve(skipped)))).toEqual({ watched: expectedWatched, nestedGit: ['sub/.git'] });
  });

  it('finds the same when the list comes only after the first pass', async () => {
    let release: (paths: ReadonlySet<string>) => void = () => undefined;
    const later = new Promise<ReadonlySet<string>>((resolve) => (release = resolve));
    const walking = walkAlongside(top, later);
    // Let every readdir of the first pass end: the walk went below `dist`, which it will have to drop.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    release(skipped);
    expect(shape(await walking)).toEqual({ watched: expectedWatched, nestedGit: ['sub/.git'] });
  });

  it('fails when the list fails', async () => {
    await expect(walkAlongside(top, Promise.reject(new Error('ls-files failed')))).rejects.toThrow('ls-files failed');
  });
});
