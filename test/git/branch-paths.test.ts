/** The paths a branch may commit: plain workspace-relative paths that never reach `.git` under any spelling. */
import { describe, expect, it } from 'vitest';
import { branchPathProblem } from '../../src/engine/git/branch-paths.js';
import { pushTransport } from '../../src/engine/git/pull-request.js';

describe('branchPathProblem', () => {
  it.each(['src/a.ts', 'README.md', '.github/workflows/ci.yml', '.gitignore', '.gitattributes', 'docs/.git-notes', 'a/git~2/b'])(
    'takes %s',
    (path) => {
      expect(branchPathProblem(path)).toBeUndefined();
    },
  );

  it.each([
    ['../x', 'not a plain path'],
    ['a/../../x', 'not a plain path'],
    ['./a', 'not a plain path'],
    ['a//b', 'not a plain path'],
    ['a/', 'not a plain path'],
    ['/etc/passwd', 'absolute'],
    ['C:/Windows/x', 'absolute'],
    ['a\\..\\x', 'backslash'],
    ['a\nb', 'control character'],
    ['.git/hooks/pre-commit', 'version-control internals'],
    ['sub/.GIT/config', 'version-control internals'],
    ['.git./hooks/x', 'version-control internals'],
    ['.git /hooks/x', 'version-control internals'],
    ['GIT~1/hooks/x', 'version-control internals'],
    ['.g\u200cit/hooks/x', 'version-control internals'],
    ['.git::$INDEX_ALLOCATION/x', 'version-control internals'],
    ['', 'empty'],
  ])('refuses %j (%s), naming it', (path, why) => {
    const problem = branchPathProblem(path);
    expect(problem).toContain(why);
    if (path !== '') expect(problem).toContain(JSON.stringify(path));
  });
});

describe('pushTransport', () => {
  it('pushes to https and ssh with the default receive-pack, and to a folder with its hooks off', () => {
    expect(pushTransport('https://github.com/o/r.git')).toEqual({ arguments: ['--receive-pack=git-receive-pack'] });
    expect(pushTransport('git@github.com:o/r.git')).toEqual({ arguments: ['--receive-pack=git-receive-pack'] });
    const local = pushTransport('/srv/origin.git');
    expect('arguments' in local && local.arguments[0]).toContain('core.hooksPath=/dev/null');
  });

  it('does not push through a remote helper or git://', () => {
    expect(pushTransport('ext::sh -c touch% /tmp/x')).toHaveProperty('refused');
    expect(pushTransport('fd::3')).toHaveProperty('refused');
    expect(pushTransport('git://example.com/r.git')).toHaveProperty('refused');
  });
});
