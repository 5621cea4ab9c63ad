/**
 * The CLI's run history, in the workspace's `.agent-team/runs/` (ignored by git through its own
 * `.gitignore`, and never read by agents: the workspace policy treats it as secret): the task list, and
 * each run's conversation, so `agent-team run --continue <taskId>` can go on from a finished run in a
 * later process.
 */
import { lstat, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConversationStore } from '../engine/conversation/conversation-store.js';
import type { ModelMessage } from '../engine/model/types.js';
import { ConfigurationError } from '../engine/errors.js';
import { JsonFileTaskStore } from '../engine/tasks/json-file-task-store.js';

export const runHistoryDirectory = '.agent-team/runs';

/** Task ids as the task manager makes them; anything else is refused before it can name a file. */
const safeId = /^[A-Za-z0-9_-]{1,100}$/;

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

class FileConversationStore implements ConversationStore {
  constructor(private readonly directory: string) {}

  async save(rootId: string, messages: readonly ModelMessage[]): Promise<void> {
    if (!safeId.test(rootId)) return;
    const file = path.join(this.directory, `${rootId}.conversation.json`);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify({ version: 1, messages }), 'utf8');
    await rename(temporary, file);
  }

  async load(rootId: string): Promise<ModelMessage[] | undefined> {
    if (!safeId.test(rootId)) return undefined;
    try {
      const file = path.join(this.directory, `${rootId}.conversation.json`);
      if ((await lstat(file)).isSymbolicLink()) return undefined;
      const parsed = JSON.parse(await readFile(file, 'utf8')) as { messages?: unknown };
      return Array.isArray(parsed.messages) && parsed.messages.every(isMessage) ? (parsed.messages as ModelMessage[]) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** A conversation file is only used when every message has the shape the model layer sends. */
function isMessage(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { role?: unknown; content?: unknown };
  return (message.role === 'user' || message.role === 'assistant') && Array.isArray(message.content) && message.content.every((part) => typeof part === 'object' && part !== null && typeof (part as { type?: unknown }).type === 'string');
}
