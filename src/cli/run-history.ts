/**
 * The CLI's run history, in the workspace's `.agent-team/runs/` (ignored by git through its own
 * `.gitignore`, and never read by agents: the workspace policy treats it as secret): the task list, and
 * each run's conversation, so `agent-team run --continue <taskId>` can go on from a finished run in a
 * later process.
 */
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConversationStore } from '../engine/conversation/conversation-store.js';
import { FileConversationStore } from '../engine/conversation/file-conversation-store.js';
import { ConfigurationError } from '../engine/errors.js';
import { JsonFileTaskStore } from '../engine/tasks/json-file-task-store.js';

export const runHistoryDirectory = '.agent-team/runs';

/** The history's stores; creates its folder (with a `.gitignore` that ignores it all) when missing. */
export async function openRunHistory(workspaceRoot: string, onWarning: (message: string) => void): Promise<{ tasks: JsonFileTaskStore; conversations: ConversationStore }> {
  const directory = path.join(workspaceRoot, ...runHistoryDirectory.split('/'));
  // The folder is in the repository, which someone else may have written: a link there would have the
  // history read from, and written to, wherever it points.
  await refuseLinks(workspaceRoot, ['.agent-team', runHistoryDirectory, `${runHistoryDirectory}/tasks.json`]);
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, '.gitignore'), '# Agent Team run history (agent-team run --continue)\n*\n', { flag: 'wx' }).catch(() => undefined);
  return { tasks: new JsonFileTaskStore(path.join(directory, 'tasks.json'), { onWarning }), conversations: new FileConversationStore(directory) };
}

async function refuseLinks(workspaceRoot: string, relativePaths: readonly string[]): Promise<void> {
  for (const relative of relativePaths) {
    const info = await lstat(path.join(workspaceRoot, ...relative.split('/'))).catch(() => undefined);
    if (info?.isSymbolicLink()) throw new ConfigurationError(`${relative} is a link: the run history is not kept through a link (it could read or write anywhere). Remove the link, or run elsewhere.`);
  }
}
