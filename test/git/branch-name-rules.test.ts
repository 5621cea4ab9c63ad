/** The input box's branch-name check agrees with `git check-ref-format --branch` (which still has the last word). */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { branchNameRuleProblem } from '../../src/engine/git/branch-name-rules.js';

const names = [
  'agent-team/t1-fix-the-parser',
  'feature/x',
  'a.b',
  'v1.2',
  'bad..name',
  'has space',
  'tilde~1',
  'caret^',
  'colon:x',
  'q?',
  'star*',
  'br[',
  'back\\slash',
  '/lead',
  'trail/',
  'a//b',
  'end.',
  'x/.hidden',
  'x.lock',
  'a/b.lock/c',
  'a@{b',
  '-dash',
  'tab\there',
  'ok@x',
];

/** git takes it as that very name (`@` alone is read as HEAD's branch, another name). */
function gitAccepts(name: string): boolean {
  try {
    return (
      execFileSync('git', ['check-ref-format', '--branch', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === name
    );
  } catch {
    return false;
  }
}

describe('branchNameRuleProblem', () => {
  it.each(names)('%s: as git says', (name) => {
    expect(branchNameRuleProblem(name) === undefined).toBe(gitAccepts(name));
  });

  it('refuses "@", which some versions of check-ref-format let through but no ref may be', () => {
    expect(branchNameRuleProblem('@')).toBeDefined();
  });

  it.each(['refs/heads/main', 'refs/tags/v1', 'HEAD', 'head', 'FETCH_HEAD', 'ORIG_HEAD'])(
    'refuses %s, which git takes but which is not a plain new branch',
    (name) => {
      expect(branchNameRuleProblem(name)).toBeDefined();
    },
  );

  it.each(['ahead', 'forehead', 'heads-up', 'feature/refs'])('still takes %s', (name) => {
    expect(branchNameRuleProblem(name)).toBeUndefined();
  });
});
