/** A task's snapshot as the task manager sends it: a running coordinator at the root unless `overrides` say otherwise. */
import type { TaskSnapshot } from '../../src/engine/tasks/types.js';

export function taskSnapshot(overrides: Partial<TaskSnapshot>): TaskSnapshot {
  return {
    id: 't1',
    parentId: null,
    rootId: 't1',
    depth: 0,
    role: 'coordinator',
    description: 'Review parsing',
    prompt: 'p',
    background: false,
    status: 'running',
    createdAt: 0,
    startedAt: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    treeUsage: { inputTokens: 0, outputTokens: 0 },
    transcriptLength: 0,
    ...overrides,
  };
}
