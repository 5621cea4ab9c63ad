/**
 * `apply_hunks`: the MCP client (or its user) decides single hunks of a finished run's proposals, by the
 * numbers the diffs carry (`@@ … @@ hunk 2`), with the engine's hunk decisions, as `agent-team apply
 * --hunk` and VS Code's hunk lenses do. Only a run that completed, only its completed tasks' proposals;
 * sensitive configuration is never written from here (it needs the user's approval in the CLI or VS
 * Code); a file changed on disk since, an unknown file or a bad number is refused and nothing is written.
 * What is written keeps its restore point in the run log, so `agent-team undo <runId>` takes it back.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import type { ChangeSet } from '../../changes/change-set.js';
import { decideNumberedHunks, type HunkDecisionResult, numberHunks } from '../../changes/numbered-hunks.js';
import { errorMessage } from '../../errors.js';
import { AcceptCheckpoint, type RestorePointSink } from '../../runs/checkpoints/accept-checkpoint.js';
import { WorkspaceBytes } from '../../runs/checkpoints/workspace-bytes.js';
import { KeyedQueue } from '../../util/keyed-queue.js';
import type { Workspace } from '../../workspace/workspace.js';
import type { ReportedRuns } from '../run-report.js';

export interface HunkToolParts extends ReportedRuns {
  workspace: Workspace;
  /** Where each write's restore point goes (the run log). Default: none kept (and no undo). */
  restorePoints?: RestorePointSink;
}

const hunkNumbers = builtOnFirstUse(() => z.array(z.number().int().min(1).max(100_000)).max(10_000));

export function registerHunkTool(server: McpServer, parts: HunkToolParts): void {
  // Two calls on one file run one after the other: the second decides on what the first left.
  const queue = new KeyedQueue();
  server.registerTool(
    'apply_hunks',
    {
      description:
        "Apply (write to the workspace) or reject chosen hunks of one file a finished delegate run proposed. Hunks are numbered as its diffs show them ('@@ … @@ hunk 2'). What is left of the file stays proposed, renumbered on top of what was written; rejected hunks stay out of it.",
      inputSchema: {
        task_id: z.string().min(1).describe('The task delegate started (its run)'),
        path: z.string().min(1).describe('The file, workspace-relative, as its diff names it'),
        apply: hunkNumbers().optional().describe('Hunk numbers to write now'),
        reject: hunkNumbers().optional().describe('Hunk numbers to reject'),
      },
    },
    async (input) => {
      try {
        const text = await queue.run(input.path, () => decide(parts, input));
        return { content: [{ type: 'text' as const, text }] };
      } catch (error) {
        return { content: [{ type: 'text' as const, text: errorMessage(error) }], isError: true };
      }
    },
  );
}

async function decide(
  parts: HunkToolParts,
  input: { task_id: string; path: string; apply?: number[]; reject?: number[] },
): Promise<string> {
  const accept = [...new Set(input.apply ?? [])];
  const reject = [...new Set(input.reject ?? [])];
  if (accept.length === 0 && reject.length === 0) throw new Error('Name hunks to apply or to reject.');
  const both = accept.filter((number) => reject.includes(number));
  if (both.length > 0) throw new Error(`Hunk ${both.join(', ')} is both to apply and to reject: choose one.`);
  const task = parts.taskManager.get(input.task_id);
  if (!task) throw new Error(`There is no task ${input.task_id}.`);
  const root = parts.taskManager.get(task.rootId) ?? task;
  if (root.status !== 'completed')
    throw new Error(
      `Run ${root.id} ${root.status === 'running' ? 'is still running' : `did not complete (${root.status})`}: its edits may be half done, so none is applied.`,
    );
  const completed = new Set(
    parts.taskManager
      .treeOf(root.id)
      .filter((each) => each.status === 'completed')
      .map((each) => each.id),
  );
  const changeSets = parts.changes.list().filter((changeSet) => completed.has(changeSet.taskId));
  const checkpoint = parts.restorePoints ? new AcceptCheckpoint(new WorkspaceBytes(parts.workspace.root)) : undefined;
  const decided = await decideNumberedHunks(changeSets, [{ path: input.path, accept, reject }], parts.workspace, {
    runId: root.id,
    ...(checkpoint ? { checkpoint } : {}),
  });
  if (decided.refused.length > 0) throw new Error(`Nothing was written or decided: ${decided.refused.join(' ')}`);
  const lines: string[] = [];
  for (const file of decided.files) {
    lines.push(`${file.outcome}: ${file.message}`);
    if (file.outcome === 'applied') lines.push(await restoreNote(parts, checkpoint, root.id, file));
    lines.push(remainder(file, changeSets));
  }
  return lines.join('\n');
}

/** How to take the write back, or that it cannot be (no run history here, or its point could not be kept). */
async function restoreNote(
  parts: HunkToolParts,
  checkpoint: AcceptCheckpoint | undefined,
  runId: string,
  file: HunkDecisionResult,
): Promise<string> {
  if (checkpoint && parts.restorePoints && (await checkpoint.record(parts.restorePoints, runId, [file.taskId])))
    return `To take it back: agent-team undo ${runId} --file ${file.path}`;
  return `No restore point was kept (this server keeps no run history): agent-team undo cannot take ${file.path} back.`;
}

/** What of the file is still proposed, as a numbered diff to choose from next. */
function remainder(file: HunkDecisionResult, changeSets: readonly ChangeSet[]): string {
  if (file.stillProposed === 0) return `Nothing of ${file.path} is proposed any more.`;
  const snapshot = changeSets.find((changeSet) => changeSet.taskId === file.taskId)?.file(file.path);
  return `Still proposed by ${file.taskId}, renumbered:\n${numberHunks(snapshot?.diff ?? '')}`;
}
