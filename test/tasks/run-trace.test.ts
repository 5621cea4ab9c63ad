/** The run trace caps what agents wrote where the trace is made: long tool inputs and results are cut. */
import { describe, expect, it } from 'vitest';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { buildRunTrace } from '../../src/engine/trace/run-trace.js';

describe('buildRunTrace', () => {
  it('cuts a long tool input and a long result, with a note; keeps short ones as they are', async () => {
    const taskManager = new TaskManager({ clock: new ManualClock() });
    const started = await taskManager.start({
      role: 'refactorer',
      description: 'Write a file',
      prompt: 'Write it',
      mode: 'background',
      work: async (context) => {
        context.appendTranscript({
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'Write',
          input: { file_path: 'a.txt', content: 'x'.repeat(10_000) },
        });
        context.appendTranscript({ type: 'tool-result', toolCallId: 'c1', toolName: 'Write', output: 'y'.repeat(10_000), isError: false });
        context.appendTranscript({ type: 'tool-call', toolCallId: 'c2', toolName: 'Read', input: { file_path: 'a.txt' } });
        return { status: 'completed', output: 'Written.' };
      },
    });
    await taskManager.wait(started.task.id);
    const [call, result, small] = (
      await buildRunTrace(taskManager, new ChangeSetRegistry(), started.task.id, { maxToolResultCharacters: 100 })
    ).run.transcript;
    expect(call).toMatchObject({
      type: 'tool-call',
      input: expect.stringMatching(/^\{"file_path":"a\.txt","content":"x+ \[cut: \d+ more characters\]$/),
    });
    expect((call as { input: string }).input.length).toBeLessThan(150);
    expect(result).toMatchObject({ type: 'tool-result', output: expect.stringMatching(/^y{100}\n\[cut: 9900 more characters\]$/) });
    expect(small).toEqual({ type: 'tool-call', toolCallId: 'c2', toolName: 'Read', input: { file_path: 'a.txt' } });
    await taskManager.close();
  });
});
