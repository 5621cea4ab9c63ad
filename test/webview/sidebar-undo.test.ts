// @vitest-environment jsdom
/** The detail view's changes: an accepted file offers Undo, an undone one is listed `undone` with Redo (Undo Accepted Changes of that file). */
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

describe('the detail pane: accepted and undone files', () => {
  it('lists accepted and undone files with Undo and Redo, which ask the host to undo that file', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([makeTask({ id: 't1', role: 'refactorer', description: 'Rename' })]));
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    harness.send({ type: 'task-detail', taskId: 't1', prompt: 'Rename' });
    const files = [
      { path: 'src/a.ts', added: 1, removed: 1, status: 'accepted' as const },
      { path: 'src/b.ts', added: 2, removed: 0, status: 'undone' as const },
      { path: 'src/c.ts', added: 1, removed: 0, status: 'rejected' as const },
    ];
    harness.send({ type: 'change-summary', summaries: [{ taskId: 't1', files, added: 4, removed: 1, pending: 0 }] });
    harness.posted.length = 0;
    const pane = harness.root.querySelector<HTMLElement>('.detail')!;
    expect(pane.querySelector('.change-undone .change-status')!.textContent).toBe('undone');
    expect(pane.querySelector('[aria-label="Undo the accepted change to src/c.ts"]')).toBeNull();
    click(pane.querySelector('[aria-label="Undo the accepted change to src/a.ts"]')!);
    click(pane.querySelector('[aria-label="Redo the accepted change to src/b.ts"]')!);
    expect(harness.posted).toEqual([
      { type: 'undo-file', taskId: 't1', path: 'src/a.ts' },
      { type: 'undo-file', taskId: 't1', path: 'src/b.ts' },
    ]);
  });
});
