/**
 * The task event path makes one object where it made two (B2): a usage sum is built frozen, and a
 * transcript entry is copied once (a tool result's output swapped in on the copy). What listeners and the
 * transcript see must stay what it was: equal values, frozen, and never the work's own object.
 */
import { describe, expect, it } from 'vitest';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { frozenCostSum, frozenSum } from '../../src/engine/tasks/tree-budget.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import type { TranscriptEntry } from '../../src/engine/agent/types.js';
import type { TaskEvent } from '../../src/engine/tasks/types.js';

describe('the event path copies once', () => {
  it('sums usage and cost into new frozen objects, naming cached input only when there is some', () => {
    const before = { inputTokens: 10, outputTokens: 2 };
    const sum = frozenSum(before, { inputTokens: 5, outputTokens: 1 });
    expect(sum).toEqual({ inputTokens: 15, outputTokens: 3 });
    expect(Object.keys(sum)).toEqual(['inputTokens', 'outputTokens']);
    expect(Object.isFrozen(sum)).toBe(true);
    expect(before).toEqual({ inputTokens: 10, outputTokens: 2 });
    expect(frozenSum(sum, { inputTokens: 4, outputTokens: 0, cachedInputTokens: 3 })).toEqual({
      inputTokens: 19,
      outputTokens: 3,
      cachedInputTokens: 3,
    });
    const cost = frozenCostSum({ usd: 0.5, unpricedTokens: 0 }, { usd: 0.25, unpricedTokens: 7 });
    expect(cost).toEqual({ usd: 0.75, unpricedTokens: 7 });
    expect(Object.isFrozen(cost)).toBe(true);
  });

  it('hands listeners and the transcript a frozen copy of each entry, which the work cannot change afterwards', async () => {
    const manager = new TaskManager({ clock: new ManualClock() });
    const heard: TranscriptEntry[] = [];
    manager.onEvent((event: TaskEvent) => {
      if (event.type === 'task-transcript') heard.push(event.entry);
    });
    const call = { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'Read', input: { file_path: 'a.txt' } };
    const result = { type: 'tool-result' as const, toolCallId: 'c1', toolName: 'Read', output: 'the notes', isError: false };
    const started = await manager.start({
      role: 'researcher',
      description: 'Read a file',
      prompt: 'Read it',
      mode: 'background',
      work: async (context) => {
        context.appendTranscript(call);
        context.appendTranscript(result);
        // The work reuses its objects: what was appended must not change with them.
        result.output = 'changed';
        call.toolName = 'Write';
        return { status: 'completed', output: 'Read.' };
      },
    });
    await manager.wait(started.task.id);
    expect(heard).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'a.txt' } },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'Read', output: 'the notes', isError: false },
    ]);
    expect(heard.every((entry) => Object.isFrozen(entry))).toBe(true);
    expect(manager.transcript(started.task.id)).toEqual(heard);
    await manager.close();
  });
});
