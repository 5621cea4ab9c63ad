import { afterEach, describe, expect, it } from 'vitest';
import { applyChangeSet } from '../../src/engine/changes/apply.js';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { type ChangeSetEvent } from '../../src/engine/changes/types.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { tempTrees } from '../workspace/temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

describe('ChangeSetRegistry', () => {
  it('flags a file two tasks propose to change on both change sets, as the edits arrive', () => {
    const registry = new ChangeSetRegistry();
    const first = registry.create('t1', 'coder');
    const second = registry.create('t2', 'tester');
    first.propose('shared.ts', { baseContent: 'a\n', proposedContent: 'b\n' });
    first.propose('only-first.ts', { baseContent: 'a\n', proposedContent: 'b\n' });
    expect(first.file('shared.ts')!.overlapsWith).toEqual([]);
    second.propose('shared.ts', { baseContent: 'a\n', proposedContent: 'c\n' });
    expect(first.file('shared.ts')!.overlapsWith).toEqual(['t2']);
    expect(second.file('shared.ts')!.overlapsWith).toEqual(['t1']);
    expect(first.file('only-first.ts')!.overlapsWith).toEqual([]);
    expect(registry.tasksProposing('shared.ts')).toEqual(['t1', 't2']);
  });

  it('lifts the flag when one side withdraws, is removed, or is applied', async () => {
    const tree = await trees.create({ 'shared.ts': 'a\n' });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
    const registry = new ChangeSetRegistry();
    const [first, second, third] = ['t1', 't2', 't3'].map((taskId) => registry.create(taskId, 'coder'));
    for (const changeSet of [first, second, third])
      changeSet.propose('shared.ts', { baseContent: 'a\n', proposedContent: `${changeSet.taskId}\n` });
    expect(first.file('shared.ts')!.overlapsWith).toEqual(['t2', 't3']);

    second.propose('shared.ts', { baseContent: 'a\n', proposedContent: 'a\n' }); // back to the base: withdrawn
    expect(first.file('shared.ts')!.overlapsWith).toEqual(['t3']);

    registry.remove('t3');
    expect(first.file('shared.ts')!.overlapsWith).toEqual([]);

    const fourth = registry.create('t4', 'coder');
    fourth.propose('shared.ts', { baseContent: 'a\n', proposedContent: 'four\n' });
    expect(first.file('shared.ts')!.overlapsWith).toEqual(['t4']);
    fourth.accept();
    await applyChangeSet(fourth, workspace);
    expect(first.file('shared.ts')!.overlapsWith).toEqual([]);
  });

  it('re-emits every set’s events, overlaps included, until the listener unsubscribes', () => {
    const registry = new ChangeSetRegistry();
    const events: ChangeSetEvent[] = [];
    const stop = registry.onEvent((event) => events.push(event));
    const first = registry.create('t1', 'coder');
    const second = registry.create('t2', 'coder');
    first.propose('x.ts', { baseContent: null, proposedContent: 'x\n' });
    second.propose('x.ts', { baseContent: null, proposedContent: 'y\n' });
    expect(events.map((event) => [event.type, event.taskId, 'overlapsWith' in event ? event.overlapsWith : undefined])).toEqual([
      ['change-proposed', 't1', undefined],
      ['change-proposed', 't2', undefined],
      ['change-overlap', 't1', ['t2']],
      ['change-overlap', 't2', ['t1']],
    ]);
    stop();
    first.propose('y.ts', { baseContent: null, proposedContent: 'y\n' });
    expect(events).toHaveLength(4);
  });

  it('refuses a second change set for one task', () => {
    const registry = new ChangeSetRegistry();
    registry.create('t1', 'coder');
    expect(() => registry.create('t1', 'coder')).toThrow('Task t1 already has a change set.');
  });
});
