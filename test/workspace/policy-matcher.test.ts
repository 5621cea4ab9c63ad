import { describe, expect, it } from 'vitest';
import { policyMatcher, resolvePolicy } from '../../src/engine/workspace/policy.js';

describe('the policy matcher', () => {
  it('answers the same when asked again, and after more paths than it keeps answers for', () => {
    const matcher = policyMatcher(resolvePolicy({ allowedSensitivePatterns: ['**/.env.example'] }));
    const expected = { '.env': '**/.env', 'config/.env.local': '**/.env.*', '.env.example': undefined, 'src/a.ts': undefined };
    for (let round = 0; round < 2; round++) {
      for (const [path, pattern] of Object.entries(expected))
        expect(matcher.sensitivePattern(path), `${path}, round ${round}`).toBe(pattern);
    }
    for (let index = 0; index < 10_000; index++) expect(matcher.sensitivePattern(`src/file-${index}.ts`)).toBeUndefined();
    for (const [path, pattern] of Object.entries(expected)) expect(matcher.sensitivePattern(path), path).toBe(pattern);
    expect(matcher.sensitivePattern('deep/down/.env')).toBe('**/.env');
  });
});
