import { z } from 'zod';
import { defineTool, toToolDefinition } from '../../src/engine/agent/tool.js';
import type { ModelMessage, ToolDefinition } from '../../src/engine/model/types.js';

/**
 * A conversation with everything a request must map: plain text, an assistant turn with text and two tool
 * calls, and a user turn with an ordinary result, an error result and a notice (written before the
 * results, to check that each adapter moves results first).
 */
export const conversation: ModelMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'Fix the bug' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Looking.' },
      { type: 'tool-call', toolCallId: 'call_a', toolName: 'Read', input: { file_path: 'a.ts' } },
      { type: 'tool-call', toolCallId: 'call_b', toolName: 'Grep', input: { pattern: 'x' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Notice: background task t2 completed' },
      { type: 'tool-result', toolCallId: 'call_a', toolName: 'Read', output: 'contents of a.ts' },
      { type: 'tool-result', toolCallId: 'call_b', toolName: 'Grep', output: 'invalid regex', isError: true },
    ],
  },
];

/** A real tool definition, through the same zod → JSON Schema path the agent loop uses. */
export const readTool: ToolDefinition = toToolDefinition(
  defineTool({
    name: 'Read',
    description: 'Reads a file.',
    inputSchema: z.object({ file_path: z.string(), limit: z.number().int().optional() }),
    readOnly: true,
    execute: () => Promise.resolve(''),
  }),
);
