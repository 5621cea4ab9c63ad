import { describe, expect, it } from 'vitest';
import { applyDelta, deltaBetween } from '../../src/engine/runs/text-delta.js';

/** Text past several of the 4,096-character blocks the comparison starts with. */
const long = Array.from({ length: 400 }, (_, line) => `line ${line}: ${'x'.repeat(line % 37)}\n`).join('');

describe('text deltas', () => {
  it.each([
    ['an edit in the middle', long, long.replace('line 200:', 'line two hundred:')],
    ['an edit on a block boundary', long, `${long.slice(0, 4096)}!${long.slice(4097)}`],
    ['text added at the start', long, `// header\n${long}`],
    ['text added at the end', long, `${long}// footer\n`],
    ['text removed', long, long.slice(0, 5000) + long.slice(9000)],
    ['a repeated character (start and end could overlap)', 'aaa', 'aaaa'],
    ['the other way', 'aaaa', 'aa'],
    ['nothing in common', 'abc', 'xyz'],
    ['from empty', '', 'new'],
    ['to empty', 'old', ''],
    ['half a surrogate pair changed', 'a\u{1F600}b', 'a\u{1F601}b'],
  ])('rebuilds exactly: %s', (_what, previous, next) => {
    const delta = deltaBetween(previous, next);
    expect(applyDelta(previous, delta)).toBe(next);
    expect(delta.keepStart + delta.keepEnd).toBeLessThanOrEqual(Math.min(previous.length, next.length));
    // It survives a JSON line (a lone surrogate is written escaped).
    expect(applyDelta(previous, JSON.parse(JSON.stringify(delta)) as typeof delta)).toBe(next);
  });

  it('holds only what changed for an edit of a long text', () => {
    expect(deltaBetween(long, long.replace('line 200:', 'line two hundred:')).text).toBe('two hundred');
  });

  it('refuses to keep more than the earlier text has', () => {
    expect(applyDelta('short', { keepStart: 4, keepEnd: 4, text: '' })).toBeUndefined();
  });
});
