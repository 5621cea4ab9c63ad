// @vitest-environment jsdom
/** Rows that say what their numbers are, a tooltip with the whole story, Escape closing the detail. */
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, pressKey, snapshotMessage } from './support/harness.js';

describe('the sidebar as VS Code users expect it', () => {
  it('a row names its units and tells role, model, status, spend and elapsed time in its tooltip', () => {
    const harness = mountHarness();
    const task = makeTask({
      id: 't1',
      role: 'researcher',
      description: 'Find usages',
      model: 'openai/gpt-5',
      status: 'completed',
      endedAt: makeTask({ id: 'x' }).startedAt! + 12_000,
      treeUsage: { inputTokens: 400, outputTokens: 80 },
    });
    harness.send(snapshotMessage([task]));
    harness.scheduler.runFrame();
    expect(harness.row('t1').querySelector('.tree-figures')!.textContent).toBe('12s\u2002480 tokens');
    expect(JSON.parse(harness.row('t1').getAttribute('data-vscode-context')!)).toEqual({
      webviewSection: 'task',
      taskId: 't1',
      taskStatus: 'completed',
      isRun: true,
      preventDefaultContextMenuItems: true,
    });
    expect(harness.row('t1').getAttribute('title')).toBe(
      'researcher: Find usages\nStatus: completed\nModel: openai/gpt-5\nTokens: 480 (with subagents)\nElapsed: 12s',
    );
  });

  it('a run started from the palette is not called "(background)"; a background subtask is', () => {
    const harness = mountHarness();
    harness.send(
      snapshotMessage([
        makeTask({ id: 'root', background: true }),
        makeTask({ id: 'child', parentId: 'root', background: true, role: 'researcher' }),
      ]),
    );
    click(harness.row('root'));
    harness.scheduler.runFrame();
    const status = () => harness.root.querySelector('.detail-meta dd')!.textContent;
    expect(status()).toBe('running');
    click(harness.row('child'));
    harness.scheduler.runFrame();
    expect(status()).toBe('running (background)');
  });

  it('a pending file\u2019s name in the detail opens its diff', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([makeTask({ id: 't1', status: 'completed' })]));
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    harness.send({
      type: 'change-summary',
      summaries: [
        { taskId: 't1', added: 1, removed: 0, pending: 1, files: [{ path: 'src/a.ts', added: 1, removed: 0, status: 'pending' }] },
      ],
    });
    harness.scheduler.runFrame();
    click(harness.root.querySelector('.change-path')!);
    expect(harness.posted.at(-1)).toEqual({ type: 'open-diff', taskId: 't1', path: 'src/a.ts' });
  });

  it('indents rows by VS Code\u2019s workbench.tree.indent', () => {
    const harness = mountHarness();
    harness.send(
      snapshotMessage([makeTask({ id: 'root' }), makeTask({ id: 'child', parentId: 'root' })], {
        modelConfigured: true,
        restricted: false,
        treeIndent: 20,
      }),
    );
    harness.scheduler.runFrame();
    expect(harness.row('child').style.paddingLeft).toBe('24px');
    harness.send({ type: 'setup-state', setup: { modelConfigured: true, restricted: false, treeIndent: 10 } });
    harness.scheduler.runFrame();
    expect(harness.row('child').style.paddingLeft).toBe('14px');
    harness.send({ type: 'setup-state', setup: { modelConfigured: true, restricted: false, treeIndent: 8 } });
    harness.scheduler.runFrame();
  });

  it('Escape in the detail closes it and gives the focus back to the row', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([makeTask({ id: 't1' })]));
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    const detail = harness.root.querySelector<HTMLElement>('.detail')!;
    expect(detail.hidden).toBe(false);
    pressKey(detail.querySelector('.detail-title')!, 'Escape');
    harness.scheduler.runFrame();
    expect(detail.hidden).toBe(true);
    expect(harness.posted.at(-1)).toEqual({ type: 'select-task', taskId: null });
    expect(harness.root.ownerDocument.activeElement).toBe(harness.row('t1'));
  });
});
