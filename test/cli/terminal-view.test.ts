import { describe, expect, it } from 'vitest';
import { JsonEventMapper, runEndEvent } from '../../src/cli/json-events.js';
import { TerminalView } from '../../src/cli/terminal-view.js';
import { taskSnapshot } from '../support/task-snapshot.js';

const task = taskSnapshot;

describe('TerminalView', () => {
  it('prints one line per start and end when the output is not a terminal', () => {
    let text = '';
    const view = new TerminalView({ write: (chunk) => (text += chunk), isTTY: false });
    view.handle({ type: 'task-start', task: task({}) });
    view.handle({
      type: 'task-start',
      task: task({ id: 't2', parentId: 't1', depth: 1, role: 'researcher', description: 'Find dates', background: true }),
    });
    view.handle({ type: 'task-update', task: task({ usage: { inputTokens: 5, outputTokens: 5 } }) });
    view.handle({
      type: 'task-end',
      task: task({
        id: 't2',
        parentId: 't1',
        depth: 1,
        role: 'researcher',
        description: 'Find dates',
        status: 'stopped',
        stopReason: { kind: 'parent-stopped', parentId: 't1' },
        treeUsage: { inputTokens: 1200, outputTokens: 300 },
      }),
    });
    expect(text.split('\n')).toEqual([
      '▶ [t1] coordinator: Review parsing',
      '  ▶ [t2] researcher: Find dates (background)',
      '  ■ [t2] researcher: Find dates — stopped: stopped because its parent task t1 was stopped (1.5k tokens)',
      '',
    ]);
  });

  it('redraws the whole tree in place on a terminal', () => {
    const writes: string[] = [];
    const view = new TerminalView({ write: (chunk) => writes.push(chunk), isTTY: true, columns: 200 }, () => 5_000);
    view.handle({ type: 'task-start', task: task({}) });
    view.handle({ type: 'task-start', task: task({ id: 't2', parentId: 't1', depth: 1, role: 'reviewer', description: 'Review' }) });
    expect(writes[1].startsWith('\x1b[1A\x1b[J')).toBe(true);
    expect(writes[1]).toContain(
      '▶ [t1] coordinator: Review parsing  running · 5s · 0 tokens\n  ▶ [t2] reviewer: Review  running · 5s · 0 tokens\n',
    );
  });

  it('shows the words a model streams under its task as they come, made safe, until the step is written down', () => {
    const writes: string[] = [];
    let now = 5_000;
    const timers: Array<{ callback: () => void; delayMs: number; cancelled: boolean }> = [];
    const setTimer = (callback: () => void, delayMs: number) => {
      const timer = { callback, delayMs, cancelled: false };
      timers.push(timer);
      return () => (timer.cancelled = true);
    };
    const view = new TerminalView({ write: (chunk) => writes.push(chunk), isTTY: true, columns: 80 }, () => now, setTimer);
    view.handle({ type: 'task-start', task: task({}) });
    view.handle({ type: 'task-text-delta', taskId: 't1', text: 'The parser is\nin ' });
    expect(writes.at(-1)).toContain('▶ [t1] coordinator: Review parsing  running · 5s · 0 tokens\n  │ The parser is in\n');
    // Within a frame (16 ms) of the last draw nothing is drawn at once: a timer draws when the frame is up.
    now += 10;
    view.handle({ type: 'task-text-delta', taskId: 't1', text: '\x1b[31msrc/' });
    const drawn = writes.length;
    view.handle({ type: 'task-text-delta', taskId: 't1', text: 'dates' });
    expect(writes.length).toBe(drawn);
    expect(timers.map((timer) => timer.delayMs)).toEqual([6]);
    now += 6;
    timers[0].callback();
    expect(writes.length).toBe(drawn + 1);
    expect(writes.at(-1)).toContain('  │ The parser is in src/dates\n');
    // A frame after that draw, words show at once, without a timer.
    now += 20;
    view.handle({ type: 'task-text-delta', taskId: 't1', text: '.ts' });
    expect(writes.length).toBe(drawn + 2);
    expect(timers).toHaveLength(1);
    expect(writes.at(-1)).toContain('  │ The parser is in src/dates.ts\n');
    expect(writes.at(-1)).not.toContain('\x1b[31m');
    // The finished step takes the words: the live line goes.
    view.handle({ type: 'task-transcript', taskId: 't1', index: 0, entry: { type: 'text', text: 'The parser is in src/dates.ts' } });
    expect(writes.at(-1)).not.toContain('│');
  });

  it('shows interrupted tasks with their own sign and words, and says how to resume the run', () => {
    let text = '';
    const view = new TerminalView({ write: (chunk) => (text += chunk), isTTY: false });
    view.handle({ type: 'task-start', task: task({}) });
    view.handle({
      type: 'task-end',
      task: task({
        id: 't2',
        parentId: 't1',
        depth: 1,
        role: 'researcher',
        description: 'Find dates',
        status: 'interrupted',
        stopReason: { kind: 'shutdown' },
      }),
    });
    view.handle({ type: 'task-end', task: task({ status: 'interrupted', stopReason: { kind: 'shutdown' } }) });
    view.finish();
    expect(text.split('\n')).toEqual([
      '▶ [t1] coordinator: Review parsing',
      '  ‖ [t2] researcher: Find dates — interrupted: Agent Team shut down before it finished (0 tokens)',
      '‖ [t1] coordinator: Review parsing — interrupted: Agent Team shut down before it finished (0 tokens)',
      // Once, for the run: a subagent goes on with it.
      'Run t1 was interrupted before it finished; go on with it: agent-team run --resume t1',
      '',
    ]);
  });

  it('says nothing about resuming a run that was stopped by the user', () => {
    let text = '';
    const view = new TerminalView({ write: (chunk) => (text += chunk), isTTY: true, columns: 200 }, () => 5_000);
    view.handle({ type: 'task-end', task: task({ status: 'stopped', stopReason: { kind: 'user' }, endedAt: 1_000 }) });
    view.finish();
    expect(text).toContain('■ [t1] coordinator: Review parsing  stopped');
    expect(text).not.toContain('--resume');
  });
});

describe('JsonEventMapper', () => {
  it('maps task events to the contract events and announces a move to the background once', () => {
    const mapper = new JsonEventMapper();
    expect(mapper.map({ type: 'task-start', task: task({ id: 't2', parentId: 't1', role: 'researcher' }) })).toEqual([
      { type: 'task-start', taskId: 't2', parentId: 't1', role: 'researcher', description: 'Review parsing', background: false },
    ]);
    expect(mapper.map({ type: 'task-update', task: task({ id: 't2', background: true }) })).toEqual([
      { type: 'task-background', taskId: 't2' },
    ]);
    expect(mapper.map({ type: 'task-update', task: task({ id: 't2', background: true }) })).toEqual([]);
    // The words as they stream; the conversation, kept for the run log, is no event of the CLI's.
    expect(mapper.map({ type: 'task-text-delta', taskId: 't2', text: 'The par' })).toEqual([
      { type: 'text-delta', taskId: 't2', text: 'The par' },
    ]);
    expect(mapper.map({ type: 'task-conversation', taskId: 't2', messages: [] })).toEqual([]);
    expect(
      mapper.map({
        type: 'task-end',
        task: task({ id: 't2', status: 'failed', error: 'boom', output: 'partial', usage: { inputTokens: 3, outputTokens: 4 } }),
      }),
    ).toEqual([
      { type: 'task-end', taskId: 't2', status: 'failed', output: 'partial', error: 'boom', usage: { inputTokens: 3, outputTokens: 4 } },
    ]);
  });

  it('passes interrupted through in task-end and run-end; a user stop stays stopped', () => {
    const mapper = new JsonEventMapper();
    const interrupted = task({ status: 'interrupted', stopReason: { kind: 'interrupted' }, output: 'half' });
    expect(mapper.map({ type: 'task-end', task: interrupted })).toEqual([
      {
        type: 'task-end',
        taskId: 't1',
        status: 'interrupted',
        output: 'half',
        stopReason: { kind: 'interrupted' },
        usage: { inputTokens: 0, outputTokens: 0 },
      },
    ]);
    expect(mapper.map({ type: 'task-end', task: task({ status: 'stopped', stopReason: { kind: 'user' } }) })).toEqual([
      expect.objectContaining({ type: 'task-end', status: 'stopped', stopReason: { kind: 'user' } }),
    ]);
    expect(runEndEvent(interrupted, 'interrupted')).toMatchObject({
      type: 'run-end',
      status: 'interrupted',
      output: 'half',
      stopReason: { kind: 'interrupted' },
    });
    // A caller that only knows the run did not complete says `stopped`; the root says it was interrupted.
    expect(runEndEvent(interrupted, 'stopped')).toMatchObject({ type: 'run-end', status: 'interrupted' });
    expect(runEndEvent(task({ status: 'stopped', stopReason: { kind: 'user' } }), 'stopped')).toMatchObject({
      type: 'run-end',
      status: 'stopped',
    });
    expect(runEndEvent(interrupted, 'failed', 'the run stopped making progress')).toMatchObject({ type: 'run-end', status: 'failed' });
  });
});
