/** The summariser's request and the split of a conversation: what is kept verbatim, what is summarised, what fits. */
import { describe, expect, it } from 'vitest';
import { compactedConversation, splitConversation, summaryMarker } from '../../../src/engine/agent/compaction/conversation-split.js';
import { maxResultCharacters, summaryRequestText, summarySystem } from '../../../src/engine/agent/compaction/summary-prompt.js';
import { compactCommand, takeTrailingCompact } from '../../../src/engine/agent/compaction/compact-command.js';
import type { ModelMessage } from '../../../src/engine/model/types.js';

const taskText = 'Rename foo to bar everywhere (the task)';

function readTurn(index: number, output = `contents ${index}`): ModelMessage[] {
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `step ${index}` },
        { type: 'tool-call', toolCallId: `c${index}`, toolName: 'Read', input: { file_path: `f${index}.ts` } },
      ],
    },
    { role: 'user', content: [{ type: 'tool-result', toolCallId: `c${index}`, toolName: 'Read', output }] },
  ];
}

function conversation(turns: number): ModelMessage[] {
  return [
    { role: 'user', content: [{ type: 'text', text: taskText }] },
    ...Array.from({ length: turns }, (_, index) => readTurn(index + 1)).flat(),
  ];
}

describe('splitConversation', () => {
  it('keeps the task and the last two answers with their results; the rest is summarised', () => {
    const split = splitConversation(conversation(5));
    expect(split.task).toEqual([{ type: 'text', text: taskText }]);
    expect(split.older).toHaveLength(6);
    expect(split.recent).toHaveLength(4);
    expect(split.recent[0]).toMatchObject({ role: 'assistant', content: [{ text: 'step 4' }, expect.anything()] });
  });

  it('a compacted conversation starts with the task and the summary, then the kept steps, each call still answered', () => {
    const messages = compactedConversation(splitConversation(conversation(5)), 'They read f1 to f3.');
    expect(messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: taskText },
        { type: 'text', text: `${summaryMarker}\nThey read f1 to f3.` },
      ],
    });
    expect(messages.slice(1).map((message) => message.role)).toEqual(['assistant', 'user', 'assistant', 'user']);
    // Compacted again: the task stays once, the earlier summary goes to the summariser, not twice into the task.
    const again = splitConversation([...messages, ...readTurn(6), ...readTurn(7)]);
    expect(again.task).toEqual([{ type: 'text', text: taskText }]);
    expect(again.earlierSummary).toBe('They read f1 to f3.');
    expect(compactedConversation(again, 'New.')[0]!.content).toHaveLength(2);
  });

  it('keeps nothing but the task when asked to (0 turns), and has nothing to summarise in a fresh conversation', () => {
    expect(splitConversation(conversation(3), 0).recent).toEqual([]);
    expect(splitConversation(conversation(3), 0).older).toHaveLength(6);
    expect(splitConversation(conversation(0)).older).toEqual([]);
  });
});

describe('summaryRequestText', () => {
  it('gives the task for context, every older step with its tool calls and results, and asks for the summary', () => {
    const split = splitConversation(conversation(4));
    const { text, droppedSteps } = summaryRequestText(split, 100_000, 'the renames');
    expect(droppedSteps).toBe(0);
    expect(text).toContain(`The task (kept verbatim; for context only):\n${taskText}`);
    expect(text).toContain('Agent: step 1');
    expect(text).toContain('Agent called Read {"file_path":"f2.ts"}');
    expect(text).toContain('Result of Read: contents 2');
    expect(text).not.toContain('step 3');
    expect(text.trimEnd().endsWith('Summarise the steps above. Focus on: the renames')).toBe(true);
    expect(summarySystem).toMatch(/Decisions[\s\S]*Files read[\s\S]*Files changed or proposed[\s\S]*Open questions/);
  });

  it('cuts long results, then leaves out the oldest steps to fit, saying so', () => {
    const messages = [conversation(0)[0]!, ...readTurn(1, 'x'.repeat(50_000)), ...readTurn(2), ...readTurn(3), ...readTurn(4)];
    const whole = summaryRequestText(splitConversation(messages), 1_000_000);
    expect(whole.text).toContain(`${'x'.repeat(maxResultCharacters)}… [${50_000 - maxResultCharacters} more characters]`);
    const small = summaryRequestText(splitConversation(messages), 1500);
    expect(small.droppedSteps).toBeGreaterThan(0);
    expect(small.text.length).toBeLessThanOrEqual(1500);
    expect(small.text).toContain('earlier steps left out');
    expect(small.text).toContain(taskText);
    expect(small.text).toContain('step 2');
  });
});

describe('/compact', () => {
  it('is the command alone or with a focus, nothing else', () => {
    expect(compactCommand('/compact')).toBe('');
    expect(compactCommand('  /compact   keep the API notes ')).toBe('keep the API notes');
    expect(compactCommand('/compactor')).toBeUndefined();
    expect(compactCommand('please /compact')).toBeUndefined();
  });

  it("as a follow-up's last message is taken off the conversation", () => {
    const messages: ModelMessage[] = [
      ...conversation(1),
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      { role: 'user', content: [{ type: 'text', text: '/compact' }] },
    ];
    expect(takeTrailingCompact(messages)).toBe('');
    expect(messages.at(-1)!.role).toBe('assistant');
    expect(takeTrailingCompact(conversation(0))).toBeUndefined();
  });
});
