import { describe, expect, it } from 'vitest';
import type { TaskSnapshot } from '../../src/engine/tasks/types.js';
import {
  allowedCommands,
  parseHostMessage,
  parseWebviewMessage,
  toProtocolTask,
  toTaskDetail,
  type HostMessage,
  type WebviewMessage,
} from '../../src/shared/protocol.js';
import { configuredSetup, makeTask, snapshotMessage } from './support/harness.js';

describe('host messages', () => {
  it('accepts every well-formed message type', () => {
    const task = makeTask({ id: 't1', stopReason: { kind: 'parent-stopped', parentId: 't0' }, status: 'stopped' });
    const messages: HostMessage[] = [
      snapshotMessage([task]),
      { ...snapshotMessage([task]), complete: false } as HostMessage,
      { type: 'snapshot-part', now: 1, tasks: [task], complete: true },
      { type: 'task-upsert', now: 1, tasks: [task] },
      { type: 'task-detail', taskId: 't1', prompt: 'Find the parser' },
      { type: 'task-detail', taskId: 't1', prompt: 'Find the parser', output: 'src/parser.ts' },
      { type: 'task-removed', taskIds: ['t1'] },
      { type: 'history-cleared', keptTaskIds: [] },
      { type: 'text-delta', taskId: 't1', text: 'hel' },
      {
        type: 'transcript',
        taskId: 't1',
        index: 0,
        entries: [
          { type: 'text', text: 'hi' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'a.ts' } },
          { type: 'tool-result', toolCallId: 'c1', toolName: 'Read', output: 'x', isError: false },
          { type: 'notice', text: 'background task t2 completed' },
        ],
      },
      {
        type: 'change-summary',
        summaries: [{ taskId: 't1', files: [{ path: 'a.ts', added: 1, removed: 2, status: 'pending' }], added: 1, removed: 2, pending: 1 }],
      },
      { type: 'setup-state', setup: { modelConfigured: false, localServerUrl: 'http://127.0.0.1:11434/v1', restricted: true } },
      { type: 'reveal-task', taskId: 't1' },
    ];
    for (const message of messages) {
      const result = parseHostMessage(message);
      expect(result.reason).toBeUndefined();
      expect(result.message).toEqual(message);
    }
  });

  it('survives the JSON round trip VS Code uses, including a tool call whose input did not parse', () => {
    const message = {
      type: 'transcript',
      taskId: 't1',
      index: 0,
      entries: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'Edit', input: undefined }],
    };
    expect(parseHostMessage(JSON.parse(JSON.stringify(message))).message).toBeDefined();
  });

  it('rejects an API key (or any unknown key) anywhere in a host message', () => {
    const withKeyInSetup = { ...snapshotMessage([]), setup: { ...configuredSetup, apiKey: 'sk-secret' } };
    const withKeyOnTop = { ...snapshotMessage([]), apiKey: 'sk-secret' };
    const withKeyInTask = { type: 'task-upsert', now: 1, tasks: [{ ...makeTask({ id: 't1' }), apiKey: 'sk-secret' }] };
    const withKeyInUsage = {
      type: 'task-upsert',
      now: 1,
      tasks: [{ ...makeTask({ id: 't1' }), usage: { inputTokens: 1, outputTokens: 1, key: 'x' } }],
    };
    const withKeyInSetupState = { type: 'setup-state', setup: { ...configuredSetup, key: 'sk-secret' } };
    for (const message of [withKeyInSetup, withKeyOnTop, withKeyInTask, withKeyInUsage, withKeyInSetupState]) {
      const result = parseHostMessage(message);
      expect(result.message).toBeUndefined();
      expect(result.reason).toMatch(/unrecognized key/i);
      // The reason names the message and the offending path, never the values it carried.
      expect(result.reason).not.toContain('sk-secret');
    }
  });

  it('drops unknown types, non-objects and wrong field types with a reason', () => {
    expect(parseHostMessage({ type: 'explode' }).reason).toContain('"explode"');
    expect(parseHostMessage(null).reason).toContain('without a type');
    expect(parseHostMessage('snapshot').message).toBeUndefined();
    expect(parseHostMessage({ type: 'text-delta', taskId: 't1', text: 42 }).reason).toMatch(/^dropped message "text-delta": text:/);
    expect(parseHostMessage({ type: 'transcript', taskId: 't1', index: -1, entries: [] }).message).toBeUndefined();
    expect(
      parseHostMessage({ type: 'task-upsert', now: 1, tasks: [makeTask({ id: 't1', status: 'exploded' as never })] }).message,
    ).toBeUndefined();
  });
});

describe('webview messages', () => {
  it('accepts every well-formed message type', () => {
    const messages: WebviewMessage[] = [
      { type: 'ready' },
      { type: 'select-task', taskId: 't1' },
      { type: 'select-task', taskId: null },
      { type: 'stop-task', taskId: 't1' },
      { type: 'resume-run', taskId: 't1' },
      { type: 'review-changes', taskId: 't1' },
      { type: 'accept-file', taskId: 't1', path: 'src/a.ts' },
      { type: 'reject-file', taskId: 't1', path: 'src/a.ts' },
      { type: 'undo-file', taskId: 't1', path: 'src/a.ts' },
      { type: 'delegate' },
      { type: 'use-local-server' },
      { type: 'open-link', url: 'https://example.com/docs' },
      ...allowedCommands.map((command) => ({ type: 'run-command', command }) as const),
      { type: 'clear-history' },
      { type: 'log', level: 'warn', message: 'dropped message' },
    ];
    for (const message of messages) expect(parseWebviewMessage(message).message).toEqual(message);
  });

  it('runs only allowlisted commands, without arguments', () => {
    expect(parseWebviewMessage({ type: 'run-command', command: 'workbench.action.terminal.sendSequence' }).message).toBeUndefined();
    expect(parseWebviewMessage({ type: 'run-command', command: 'agentTeam.setApiKey', args: ['x'] }).message).toBeUndefined();
  });

  it('opens only http and https links', () => {
    for (const url of [
      'mailto:someone@example.com',
      'javascript:alert(1)',
      'command:workbench.action.terminal.new',
      'file:///etc/passwd',
      'vscode://x',
      'relative/path',
    ]) {
      expect(parseWebviewMessage({ type: 'open-link', url }).message, url).toBeUndefined();
    }
    expect(parseWebviewMessage({ type: 'open-link', url: 'https://example.com/docs' }).message).toBeDefined();
  });

  it('rejects unknown keys: the local server offer carries no URL', () => {
    expect(parseWebviewMessage({ type: 'use-local-server', url: 'http://evil.example' }).message).toBeUndefined();
    expect(parseWebviewMessage({ type: 'stop-task', taskId: 't1', cascade: false }).message).toBeUndefined();
    expect(parseWebviewMessage({ type: 'resume-run', taskId: 't1', model: 'x' }).message).toBeUndefined();
    expect(parseWebviewMessage({ type: 'resume-run', taskId: '' }).message).toBeUndefined();
  });
});

describe('toProtocolTask and toTaskDetail', () => {
  const engineSnapshot = {
    ...makeTask({ id: 't1', model: 'openai/gpt-5' }),
    prompt: 'Find the parser',
    output: 'done',
    budget: { tokens: 5 },
  } as TaskSnapshot;

  it('copy exactly the protocol fields, so new engine fields never break the strict check', () => {
    const task = toProtocolTask(engineSnapshot);
    expect(task).not.toHaveProperty('budget');
    expect(task.model).toBe('openai/gpt-5');
    expect(parseHostMessage({ type: 'task-upsert', now: 1, tasks: [task] }).message).toBeDefined();
    expect(parseHostMessage({ type: 'task-upsert', now: 1, tasks: [engineSnapshot] }).message).toBeUndefined();
  });

  it('leave prompt and output out of the tree\u2019s tasks, which refuse them, and put them in the detail', () => {
    expect(toProtocolTask(engineSnapshot)).not.toHaveProperty('prompt');
    expect(toProtocolTask(engineSnapshot)).not.toHaveProperty('output');
    const { budget: _budget, ...withDetail } = engineSnapshot as TaskSnapshot & { budget: unknown };
    expect(parseHostMessage({ type: 'task-upsert', now: 1, tasks: [withDetail] }).reason).toMatch(/unrecognized key/i);
    expect(toTaskDetail(engineSnapshot)).toEqual({ taskId: 't1', prompt: 'Find the parser', output: 'done' });
    expect(toTaskDetail({ ...engineSnapshot, output: undefined })).toEqual({ taskId: 't1', prompt: 'Find the parser' });
  });
});
