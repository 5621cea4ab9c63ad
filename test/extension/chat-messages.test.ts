/** The engine's request in the Language Model API's shape: the parts, their order, and what has no field. */
import { describe, expect, it, vi } from 'vitest';
import { toChatMessages } from '../../src/extension/language-model/chat-messages.js';
import {
  LanguageModelChatMessageRole,
  LanguageModelTextPart,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
} from './support/fake-vscode.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

describe('toChatMessages', () => {
  it('puts the instruction first, pairs calls and results by id, flags error results in their text, and drops empty text', () => {
    const messages = toChatMessages({
      system: 'You are a researcher.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Where?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'a.ts' } },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'Grep', input: undefined },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'A message from the user arrived.' },
            { type: 'tool-result', toolCallId: 'c1', toolName: 'Read', output: 'const a = 1;' },
            { type: 'tool-result', toolCallId: 'c2', toolName: 'Grep', output: 'invalid JSON input', isError: true },
          ],
        },
      ],
    });
    expect(messages.map((message) => message.role)).toEqual([
      LanguageModelChatMessageRole.User,
      LanguageModelChatMessageRole.User,
      LanguageModelChatMessageRole.Assistant,
      LanguageModelChatMessageRole.User,
    ]);
    expect((messages[0]!.content[0] as LanguageModelTextPart).value).toBe('You are a researcher.');
    expect(messages[2]!.content).toEqual([
      new LanguageModelToolCallPart('c1', 'Read', { file_path: 'a.ts' }),
      new LanguageModelToolCallPart('c2', 'Grep', {}),
    ]);
    const results = messages[3]!.content;
    // Results come first, right after the calls; the text after them.
    expect(results.map((part) => part.constructor)).toEqual([
      LanguageModelToolResultPart,
      LanguageModelToolResultPart,
      LanguageModelTextPart,
    ]);
    expect(((results[1] as LanguageModelToolResultPart).content[0] as LanguageModelTextPart).value).toBe('Error: invalid JSON input');
  });
});
