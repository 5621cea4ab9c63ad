import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, toToolDefinition } from '../../src/engine/agent/tool.js';

const echo = defineTool({
  name: 'Echo',
  description: 'Says it back.',
  readOnly: true,
  inputSchema: z.object({ text: z.string().describe('What to say'), times: z.number().int().optional() }),
  async execute(input) {
    return input.text;
  },
});

describe('toToolDefinition', () => {
  it('gives the model the JSON Schema of the input, without $schema', () => {
    expect(toToolDefinition(echo)).toEqual({
      name: 'Echo',
      description: 'Says it back.',
      inputSchema: {
        type: 'object',
        properties: {
          text: { type: 'string', description: 'What to say' },
          times: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        },
        required: ['text'],
      },
    });
  });

  it('converts each schema once: every task building the same tool shares the result', () => {
    const copy = { ...echo, description: 'A copy with the same schema.' };
    expect(toToolDefinition(copy).inputSchema).toBe(toToolDefinition(echo).inputSchema);
    const other = { ...echo, inputSchema: z.object({ text: z.string() }) };
    expect(toToolDefinition(other).inputSchema).not.toBe(toToolDefinition(echo).inputSchema);
  });
});
