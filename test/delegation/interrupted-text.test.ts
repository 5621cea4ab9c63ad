/** How an interrupted task reads to the models and people told of it: never as failed, never as a user's stop. */
import { describe, expect, it } from 'vitest';
import { formatTaskResult } from '../../src/engine/delegation/task-result-text.js';
import { endReason } from '../../src/engine/tasks/end-reason.js';
import { formatNotice, noticeFor } from '../../src/engine/tasks/notifications.js';
import type { TaskSnapshot } from '../../src/engine/tasks/types.js';

function snapshot(overrides: Partial<TaskSnapshot>): TaskSnapshot {
  return {
    id: 't2',
    parentId: 't1',
    rootId: 't1',
    depth: 1,
    role: 'researcher',
    description: 'Find usages',
    prompt: 'Find them',
    background: true,
    status: 'interrupted',
    createdAt: 1,
    endedAt: 2,
    stopReason: { kind: 'shutdown' },
    output: 'found two so far',
    usage: { inputTokens: 1, outputTokens: 1 },
    treeUsage: { inputTokens: 1, outputTokens: 1 },
    transcriptLength: 0,
    ...overrides,
  };
}

describe('an interrupted task in words', () => {
  it('its result says it was interrupted before it finished, with its partial output', () => {
    const text = formatTaskResult(snapshot({}));
    expect(text).toMatch(
      /^Task t2 \(researcher: "Find usages"\) was interrupted \(the window closed or the process ended\) before it finished\./,
    );
    expect(text).toContain('Partial output:\nfound two so far');
  });

  it('its end reason says what ended the session, and a user stop still reads as one', () => {
    expect(endReason(snapshot({}))).toBe('Agent Team shut down before it finished');
    expect(endReason(snapshot({ stopReason: { kind: 'interrupted' } }))).toBe('it was still running when Agent Team last closed');
    expect(endReason(snapshot({ status: 'stopped', stopReason: { kind: 'user' } }))).toBe('stopped by the user');
  });

  it('a background notice keeps the status', () => {
    const notice = noticeFor(snapshot({}), 100);
    expect(notice.status).toBe('interrupted');
    expect(formatNotice(notice)).toContain('Task t2 (researcher: "Find usages") stopped because Agent Team shut down.');
  });
});
