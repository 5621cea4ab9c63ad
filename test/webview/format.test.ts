import { describe, expect, it } from 'vitest';
import { formatElapsed, formatTaskElapsed, formatTokens } from '../../src/webview/format.js';
import { makeTask, startTime } from './support/harness.js';

describe('formatTokens', () => {
  it('is compact', () => {
    expect([0, 950, 1000, 1234, 12_345, 99_999, 123_456, 1_234_567].map(formatTokens)).toEqual([
      '0',
      '950',
      '1k',
      '1.2k',
      '12.3k',
      '99.9k',
      '123k',
      '1.2M',
    ]);
  });
});

describe('formatElapsed', () => {
  it('shows seconds, then minutes and seconds, then hours and minutes', () => {
    expect([0, 999, 42_000, 185_000, 3_720_000].map(formatElapsed)).toEqual(['0s', '0s', '42s', '3m 05s', '1h 02m']);
  });

  it('measures running tasks until now, finished ones until they ended, and queued ones not at all', () => {
    expect(formatTaskElapsed(makeTask({ id: 'r', status: 'running' }), startTime + 5_000)).toBe('5s');
    expect(formatTaskElapsed(makeTask({ id: 'c', status: 'completed', endedAt: startTime + 61_000 }), startTime + 999_000)).toBe('1m 01s');
    expect(formatTaskElapsed(makeTask({ id: 'q', status: 'queued', startedAt: undefined }), startTime + 5_000)).toBe('');
  });
});
