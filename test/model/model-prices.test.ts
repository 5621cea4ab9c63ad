/**
 * Prices: the list's entries, dated versions of a model, a longer name never taken for a shorter one, the
 * user's prices winning, bad entries named, cached input at its own price, and how a cost reads.
 */
import { describe, expect, it } from 'vitest';
import { formatCost } from '../../src/engine/model/cost-schema.js';
import { defaultModelIds, modelProviders } from '../../src/engine/model/create-model.js';
import { claudeModelAliases } from '../../src/engine/model/model-aliases.js';
import { costOf, listPrices, parseModelPrices, PriceTable } from '../../src/engine/model/model-prices.js';

describe('PriceTable', () => {
  const table = new PriceTable({
    'openai/my-local-model': { input: 0, output: 0 },
    'anthropic/claude-sonnet-4-5': { input: 1, output: 2 },
  });

  it('finds a model, its dated versions, and never a longer name under a shorter one', () => {
    expect(table.priceOf('openai/gpt-5-mini')).toEqual({ input: 0.25, output: 2, cachedInput: 0.025 });
    expect(table.priceOf('openai/gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, output: 0.6, cachedInput: 0.075 });
    expect(table.priceOf('anthropic/claude-haiku-4-5-20251001')?.input).toBe(1);
    expect(table.priceOf('openai/gpt-5.1')).toBeUndefined();
    expect(table.priceOf('openai/gpt-5-turbo-preview')).toBeUndefined();
    expect(table.priceOf(undefined)).toBeUndefined();
  });

  it('prices every default model and every Claude alias, so a run on defaults never costs "unknown"', () => {
    const list = new PriceTable();
    for (const provider of modelProviders) expect(list.priceOf(`${provider}/${defaultModelIds[provider]}`), provider).toBeDefined();
    for (const model of Object.values(claudeModelAliases)) expect(list.priceOf(`anthropic/${model}`), model).toBeDefined();
    // The default Anthropic model is newer than the last price check: it carries the Sonnet tier's price, marked as such.
    expect(listPrices().find((entry) => entry.model === 'anthropic/claude-sonnet-5-5')).toEqual({
      model: 'anthropic/claude-sonnet-5-5',
      price: { input: 3, output: 15, cachedInput: 0.3 },
      tierEstimate: true,
    });
    expect(listPrices().find((entry) => entry.model === 'openai/gpt-5-mini')?.tierEstimate).toBe(false);
  });

  it("lets the user's prices win, and price a model at nothing on purpose", () => {
    expect(table.priceOf('anthropic/claude-sonnet-4-5-20250929')).toEqual({ input: 1, output: 2 });
    expect(table.priceOf('openai/my-local-model')).toEqual({ input: 0, output: 0 });
  });

  it('names each bad entry of the user\u2019s prices and keeps the rest', () => {
    const parsed = parseModelPrices(
      {
        'gpt-5': { input: 1, output: 1 },
        'openai/a': { input: -1, output: 1 },
        'openai/b': { input: 1, output: 1, extra: 1 },
        'openai/c': { input: 1, output: 3 },
      },
      'agentTeam.modelPrices',
    );
    expect(parsed.prices).toEqual({ 'openai/c': { input: 1, output: 3 } });
    expect(parsed.problems).toHaveLength(3);
    expect(parseModelPrices([1, 2], 'agentTeam.modelPrices').problems[0]).toContain('not an object');
  });
});

describe('costOf and formatCost', () => {
  it('prices cached input at its own price, and input without one at the input price', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 400_000 };
    expect(costOf(usage, { input: 2, output: 10, cachedInput: 0.5 })).toBeCloseTo(2.4, 10);
    expect(costOf(usage, { input: 2, output: 10 })).toBeCloseTo(3, 10);
  });

  it('reads as dollars, as unknown when nothing had a price, and as a lower bound when part had none', () => {
    expect(formatCost({ usd: 1.234, unpricedTokens: 0 })).toBe('$1.23');
    expect(formatCost({ usd: 0.0421, unpricedTokens: 0 })).toBe('$0.042');
    expect(formatCost({ usd: 0.00042, unpricedTokens: 0 })).toBe('$0.0004');
    expect(formatCost({ usd: 0, unpricedTokens: 0 })).toBe('$0.000');
    expect(formatCost({ usd: 0, unpricedTokens: 500 })).toBe('unknown');
    expect(formatCost({ usd: 0.3, unpricedTokens: 500 })).toBe('≥ $0.300 (some models unpriced)');
  });
});
