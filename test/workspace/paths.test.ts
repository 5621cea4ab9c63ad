import * as nodePath from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceError } from '../../src/engine/errors.js';
import { comparePaths, isInside, toWorkspacePath } from '../../src/engine/workspace/paths.js';

const root = nodePath.resolve('/projects/app');

describe('toWorkspacePath', () => {
  it('turns relative and absolute-inside paths into workspace-relative POSIX paths', () => {
    expect(toWorkspacePath(root, 'src/a.ts')).toBe('src/a.ts');
    expect(toWorkspacePath(root, './src/../src/a.ts')).toBe('src/a.ts');
    expect(toWorkspacePath(root, nodePath.join(root, 'src', 'a.ts'))).toBe('src/a.ts');
    expect(toWorkspacePath(root, root)).toBe('');
    expect(toWorkspacePath(root, '.')).toBe('');
  });

  it.each(['../secrets.txt', 'src/../../x', nodePath.resolve('/etc/passwd'), nodePath.resolve('/projects/app-other/x')])(
    'refuses %s as outside the workspace',
    (input) => {
      let caught: unknown;
      try {
        toWorkspacePath(root, input);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(WorkspaceError);
      expect((caught as WorkspaceError).kind).toBe('outside-workspace');
      expect((caught as WorkspaceError).message).toMatch(/outside the workspace/);
    },
  );
});

/** What `toWorkspacePath` returned before plain paths skipped `path.resolve` and `path.relative`. */
function resolvedThePathWay(input: string): string {
  const trimmed = input.trim();
  const relative = nodePath.relative(root, nodePath.resolve(nodePath.isAbsolute(trimmed) ? trimmed : nodePath.join(root, trimmed)));
  return relative.split(nodePath.sep).join('/');
}

describe('plain relative paths, which skip path resolution', () => {
  it('come out as the full resolution gives them, and everything else is resolved', () => {
    const inputs = [
      'src/a.ts',
      'a',
      '.hidden/x',
      '..hidden',
      'a/..b/c.',
      'a/.../b',
      'a b/c d.txt',
      ' src/a.ts ',
      'src//a.ts',
      'src/a.ts/',
      'src/./a.ts',
      './a',
      'a/.',
      '\u00e9t\u00e9/\u{1F600}.txt',
      'x'.repeat(300),
    ];
    for (const input of inputs) expect(toWorkspacePath(root, input), input).toBe(resolvedThePathWay(input));
  });

  it('never let a parent segment, an absolute path or a NUL through', () => {
    expect(() => toWorkspacePath(root, 'a/../../x')).toThrow(/outside the workspace/);
    expect(() => toWorkspacePath(root, '..')).toThrow(/outside the workspace/);
    expect(() => toWorkspacePath(root, '/etc/passwd')).toThrow(/outside the workspace/);
    expect(() => toWorkspacePath(root, 'a\0b')).toThrow(/NUL/);
  });
});

describe('isInside', () => {
  it('answers as path.relative does, for resolved paths and for paths with dot segments', () => {
    const cases: Array<[string, string, boolean]> = [
      ['/projects/app', '/projects/app', true],
      ['/projects/app', '/projects/app/src/a.ts', true],
      ['/projects/app', '/projects/app-other/a.ts', false],
      ['/projects/app', '/projects', false],
      ['/projects/app/', '/projects/app/src', true],
      ['/projects/app/', '/projects/app', true],
      ['/', '/etc/passwd', true],
      ['/projects/app', '/projects/app/../secrets', false],
      ['/projects/app', '/projects/app/./src', true],
      ['/projects/app', '/projects/app//src', true],
      ['/projects/app/sub/..', '/projects/app/x', true],
    ];
    for (const [parent, child, inside] of cases) {
      const relative = nodePath.posix.relative(parent, child);
      expect(
        relative === '' || (!relative.startsWith('..') && !nodePath.posix.isAbsolute(relative)),
        `path.relative: ${child} in ${parent}`,
      ).toBe(inside);
      expect(isInside(parent, child), `${child} in ${parent}`).toBe(inside);
    }
  });
});

describe('comparePaths', () => {
  it('orders component by component, as a sorted depth-first walk visits files', () => {
    const paths = ['a.txt', 'a/b.txt', 'B.txt', 'a/.hidden', 'a-b/c', '\u{1F600}.txt', '\uFFFD.txt'];
    expect([...paths].sort(comparePaths)).toEqual(['B.txt', 'a/.hidden', 'a/b.txt', 'a-b/c', 'a.txt', '\uFFFD.txt', '\u{1F600}.txt']);
  });
});
