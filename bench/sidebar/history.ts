/**
 * A long task history as the host would send it: delegations of a coordinator and four subagents each,
 * newest on top still running, every task with a realistic prompt and output (the engine's snapshots hold
 * both; the host's messages leave them to `task-detail`), split into messages as the host does.
 */
import type { TaskSnapshot } from '../../src/engine/tasks/types.js';
import { type HostMessage, toProtocolTask } from '../../src/shared/protocol.js';
import { snapshotMessages } from '../../src/shared/protocol-snapshot.js';

export const historyStart = 1_700_000_000_000;
const roles = ['researcher', 'reviewer', 'refactorer', 'researcher'];

const prompt =
  'Find every place where we parse dates from user input, check whether the time zone is handled, and list the call sites with file:line references. '.repeat(
    2,
  );
const output =
  'Dates are parsed in three places: src/date/parse.ts:42 (local time zone, the bug), src/api/query.ts:118 (UTC, correct) and src/ui/picker.ts:77 (delegates to parse.ts). '.repeat(
    3,
  );

/** `count` tasks (rounded down to whole delegations of five), oldest first; the newest delegation is running. */
export function longHistory(count: number): TaskSnapshot[] {
  const delegations = Math.floor(count / 5);
  const tasks: TaskSnapshot[] = [];
  for (let delegation = 0; delegation < delegations; delegation++) {
    const rootId = `t${delegation * 5 + 1}`;
    const createdAt = historyStart + delegation * 60_000;
    const running = delegation === delegations - 1;
    tasks.push(task(rootId, null, rootId, 0, 'coordinator', `Review date handling ${delegation}`, createdAt, running));
    for (let child = 0; child < 4; child++) {
      tasks.push(
        task(
          `t${delegation * 5 + 2 + child}`,
          rootId,
          rootId,
          1,
          roles[child],
          `Check parser ${delegation}.${child}`,
          createdAt + child + 1,
          running,
        ),
      );
    }
  }
  return tasks;
}

function task(
  id: string,
  parentId: string | null,
  rootId: string,
  depth: number,
  role: string,
  description: string,
  createdAt: number,
  running: boolean,
): TaskSnapshot {
  return {
    id,
    parentId,
    rootId,
    depth,
    role,
    description,
    prompt,
    model: 'anthropic/claude-sonnet-5-5',
    background: depth > 0,
    status: running ? 'running' : 'completed',
    createdAt,
    startedAt: createdAt,
    ...(running ? {} : { endedAt: createdAt + 42_000, output }),
    usage: { inputTokens: 12_345, outputTokens: 2_345 },
    treeUsage: { inputTokens: depth === 0 ? 61_725 : 12_345, outputTokens: depth === 0 ? 11_725 : 2_345 },
    transcriptLength: 24,
  };
}

/** The messages the host sends for this history (src/extension/sidebar/task-view-provider.ts). */
export function snapshotOf(tasks: TaskSnapshot[], now: number): HostMessage[] {
  return snapshotMessages({
    now,
    tasks: tasks.map(toProtocolTask),
    changes: [],
    setup: { modelConfigured: true, provider: 'anthropic', model: 'claude-sonnet-5-5', restricted: false },
  });
}
