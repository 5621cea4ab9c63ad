import * as nodePath from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceError } from '../../src/engine/errors.js';
import { comparePaths, toWorkspacePath } from '../../src/engine/workspace/paths.js';

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

describe('comparePaths', () => {
  it('orders component by component, as a sorted depth-first walk visits files', () => {
    const paths = ['a.txt', 'a/b.txt', 'B.txt', 'a/.hidden', 'a-b/c', '\u{1F600}.txt', '\uFFFD.txt'];
    expect([...paths].sort(comparePaths)).toEqual(['B.txt', 'a/.hidden', 'a/b.txt', 'a-b/c', 'a.txt', '\uFFFD.txt', '\u{1F600}.txt']);
  });
});
