/** The meter and its threshold: the provider's count of the last request plus an estimate of what was added. */
import { describe, expect, it } from 'vitest';
import { ContextMeter } from '../../../src/engine/agent/compaction/context-meter.js';
import { isCompactAt } from '../../../src/engine/agent/compaction/context-policy.js';
import { ContextWindowTable, parseContextWindows } from '../../../src/engine/model/context-windows.js';
import type { ModelMessage } from '../../../src/engine/model/types.js';

const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('ContextMeter', () => {
  it('shows the provider count, and adds only what came after the counted request (four characters a token)', () => {
    const meter = new ContextMeter(10_000);
    const messages = [user('a'.repeat(400))];
    meter.requestSent(messages);
    meter.counted(5000);
    expect(meter.usedTokens).toBe(5000);
    expect(meter.estimateNext(messages)).toBe(5000);
    messages.push(assistant('b'.repeat(400)), user('c'.repeat(800)));
    expect(meter.estimateNext(messages)).toBe(5300);
    // A counted message that gained parts counts its growth only.
    const grown = [
      ...messages.slice(0, 0),
      {
        role: 'user' as const,
        content: [
          { type: 'text' as const, text: 'a'.repeat(400) },
          { type: 'text' as const, text: 'd'.repeat(40) },
        ],
      },
    ];
    expect(meter.estimateNext(grown)).toBe(5010);
  });

  it('wants a compaction at 80 % of the window by default, at the fraction given otherwise, never without a window', () => {
    const messages = [user('x')];
    const at = (compactAt: number | undefined, used: number, window: number | undefined) => {
      const meter = new ContextMeter(window, compactAt);
      meter.requestSent(messages);
      meter.counted(used);
      return meter.wantsCompaction(messages);
    };
    expect(at(undefined, 7999, 10_000)).toBe(false);
    expect(at(undefined, 8000, 10_000)).toBe(true);
    expect(at(0.5, 5000, 10_000)).toBe(true);
    expect(at(0.5, 4999, 10_000)).toBe(false);
    expect(at(undefined, 1_000_000, undefined)).toBe(false);
    // Before the provider has counted anything, nothing is known.
    expect(new ContextMeter(10).wantsCompaction(messages)).toBe(false);
  });

  it('takes the window the provider names over the configured one', () => {
    const meter = new ContextMeter(1_000_000);
    meter.learnWindow(7000);
    expect(meter.windowTokens).toBe(7000);
    meter.learnWindow(undefined);
    expect(meter.windowTokens).toBe(7000);
  });

  it('compactAt must leave room: from 0.2 to 1, as the setting schema says', () => {
    expect([0.8, 1, 0.5, 0.2].every(isCompactAt)).toBe(true);
    expect([0, 0.1, 0.19, 1.5, Number.NaN, '0.8'].some(isCompactAt)).toBe(false);
  });
});

describe('ContextWindowTable', () => {
  it("knows the listed models and their dated versions; the user's windows win; --context-window wins over all", () => {
    const table = new ContextWindowTable({ 'openai/my-local': 32_000, 'openai/gpt-4o': 64_000 });
    expect(table.windowOf('anthropic/claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(table.windowOf('openai/gpt-5-mini')).toBe(272_000);
    expect(table.windowOf('openai/my-local')).toBe(32_000);
    expect(table.windowOf('openai/gpt-4o')).toBe(64_000);
    expect(table.windowOf('openai/unknown')).toBeUndefined();
    expect(new ContextWindowTable({}, 5000).windowOf('anthropic/claude-opus-4-5')).toBe(5000);
  });

  it('names each bad setting entry and leaves it out', () => {
    const { windows, problems } = parseContextWindows(
      { 'openai/a': 8000, b: 9000, 'openai/c': 12.5, 'openai/d': 10 },
      'agentTeam.modelContextWindows',
    );
    expect(windows).toEqual({ 'openai/a': 8000 });
    expect(problems).toHaveLength(3);
    expect(parseContextWindows([1], 'x').problems[0]).toContain('not an object');
  });
});
