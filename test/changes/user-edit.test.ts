/** The user edits a proposal by hand before deciding it: `ChangeSet.editProposed`, and the trace's marker. */
import { describe, expect, it } from 'vitest';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { changeSetSnapshotSchemas } from '../../src/engine/changes/change-set-schema.js';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { type ChangeSetEvent } from '../../src/engine/changes/types.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { buildRunTrace } from '../../src/engine/trace/run-trace.js';
import { renderTraceMarkdown } from '../../src/engine/trace/trace-markdown.js';

const base = Array.from({ length: 20 }, (_, index) => `line ${index + 1}\n`).join('');
const agentProposal = base.replace('line 2\n', 'two\n').replace('line 18\n', 'eighteen\n');

function proposed(): { changeSet: ChangeSet; events: ChangeSetEvent[] } {
  const changeSet = new ChangeSet({ taskId: 't1', role: 'refactorer' });
  changeSet.propose('f.txt', { baseContent: base, proposedContent: agentProposal });
  const events: ChangeSetEvent[] = [];
  changeSet.onEvent((event) => events.push(event));
  return { changeSet, events };
}

describe('ChangeSet.editProposed', () => {
  it('makes the user\u2019s text the proposal: hunks and diff recomputed from the same base, marked as the user\u2019s, announced', () => {
    const { changeSet, events } = proposed();
    const [, second] = changeSet.file('f.txt')!.hunks;
    const userText = agentProposal.replace('two\n', 'TWO (mine)\n');
    const file = changeSet.editProposed('f.txt', userText);
    expect(file).toMatchObject({
      proposedContent: userText,
      baseContent: base,
      editedByUser: true,
      status: 'pending',
      added: 2,
      removed: 2,
    });
    expect(file.hunks.map((hunk) => hunk.lines.filter((line) => line.startsWith('+')))).toEqual([['+TWO (mine)'], ['+eighteen']]);
    expect(file.diff).toContain('+TWO (mine)');
    // The untouched hunk keeps its id, so a decision or a lens naming it still finds it.
    expect(file.hunks[1]!.id).toBe(second!.id);
    expect(events).toEqual([{ type: 'change-proposed', taskId: 't1', path: 'f.txt', diff: file.diff, added: 2, removed: 2 }]);
    changeSet.accept({ path: 'f.txt' });
    expect(changeSet.resultContent('f.txt')).toBe(userText);
  });

  it('keeps decisions of hunks the edit left alone, and is a no-op for the same text', () => {
    const { changeSet, events } = proposed();
    const [first, second] = changeSet.file('f.txt')!.hunks;
    changeSet.reject({ path: 'f.txt', hunkId: first!.id });
    changeSet.editProposed('f.txt', agentProposal.replace('eighteen\n', 'EIGHTEEN\n'));
    const hunks = changeSet.file('f.txt')!.hunks;
    expect(hunks.map((hunk) => [hunk.id === first!.id, hunk.id === second!.id, hunk.decision])).toEqual([
      [true, false, 'rejected'],
      [false, false, 'pending'],
    ]);
    const count = events.length;
    changeSet.editProposed('f.txt', agentProposal.replace('eighteen\n', 'EIGHTEEN\n'));
    expect(events).toHaveLength(count);
  });

  it('refuses a file already written, one whose changes are all decided, an edit back to the base and an unknown file', () => {
    const { changeSet } = proposed();
    expect(() => changeSet.editProposed('f.txt', base)).toThrow(
      /not kept: it is the file as it was before the proposal\. To drop the whole change, reject it/,
    );
    expect(() => changeSet.editProposed('other.txt', 'x')).toThrow(expect.objectContaining({ kind: 'not-found' }));
    changeSet.reject({ path: 'f.txt' });
    expect(() => changeSet.editProposed('f.txt', 'x\n')).toThrow(/already accepted or rejected/);
    changeSet.accept({ path: 'f.txt' });
    changeSet.markApplied('f.txt');
    expect(() => changeSet.editProposed('f.txt', 'x\n')).toThrow(
      expect.objectContaining({ kind: 'invalid', message: expect.stringMatching(/already accepted and written/) }),
    );
  });

  it('survives a snapshot (as saved, read back leniently) and a rebase, marker included', () => {
    const { changeSet } = proposed();
    changeSet.editProposed('f.txt', agentProposal.replace('two\n', 'mine\n'));
    const saved = changeSetSnapshotSchemas.lenient.parse(JSON.parse(JSON.stringify(changeSet.snapshot())));
    const restored = ChangeSet.fromSnapshot(saved);
    expect(restored.file('f.txt')).toEqual(changeSet.file('f.txt'));
    expect(restored.file('f.txt')!.editedByUser).toBe(true);
    restored.rebase('f.txt', { baseContent: base, proposedContent: agentProposal.replace('two\n', 'mine\n') });
    expect(restored.file('f.txt')!.editedByUser).toBe(true);
    // A proposal nobody edited carries no marker at all (older saved files stay as they were).
    const untouched = proposed().changeSet.snapshot().files[0]!;
    expect('editedByUser' in untouched).toBe(false);
  });

  it('shows in the run trace as the user\u2019s edit', async () => {
    const taskManager = new TaskManager({ clock: new ManualClock() });
    const changes = new ChangeSetRegistry();
    const started = await taskManager.start({
      role: 'refactorer',
      description: 'Rename',
      prompt: 'Rename it',
      mode: 'background',
      work: async () => ({ status: 'completed', output: 'Done.' }),
    });
    await taskManager.wait(started.task.id);
    const changeSet = changes.create(started.task.id, 'refactorer');
    changeSet.propose('f.txt', { baseContent: base, proposedContent: agentProposal });
    changeSet.propose('g.txt', { baseContent: null, proposedContent: 'new\n' });
    changeSet.editProposed('f.txt', agentProposal.replace('two\n', 'mine\n'));
    const trace = await buildRunTrace(taskManager, changes, started.task.id);
    expect(trace.run.changes.map((change) => [change.path, change.editedByUser])).toEqual([
      ['f.txt', true],
      ['g.txt', undefined],
    ]);
    const markdown = renderTraceMarkdown(trace);
    expect(markdown).toContain('**f.txt** (+2 \u22122, pending, edited by the user)');
    expect(markdown).toContain('**g.txt** (+1 \u22120, pending)');
    await taskManager.close();
  });
});
