import { describe, expect, it } from 'vitest';
import { defaultModelIds } from '../../src/engine/model/create-model.js';
import { resolveModelOverride } from '../../src/engine/model/model-aliases.js';

describe("Claude Code's model aliases", () => {
  it("name Anthropic's models on Anthropic, the run's own model elsewhere, and leave real ids alone", () => {
    expect(resolveModelOverride('haiku', 'anthropic')).toBe('claude-haiku-4-5');
    expect(resolveModelOverride('Sonnet', 'anthropic')).toBe(defaultModelIds.anthropic);
    expect(resolveModelOverride('opus', 'openai')).toBeUndefined();
    expect(resolveModelOverride('opus', 'vscode-lm')).toBeUndefined();
    expect(resolveModelOverride('gpt-5-mini', 'openai')).toBe('gpt-5-mini');
    expect(resolveModelOverride(undefined, 'anthropic')).toBeUndefined();
  });
});
