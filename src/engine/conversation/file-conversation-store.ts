/**
 * Conversations kept on disk, one file per run (or per subagent the user may send back), so a follow-up
 * after a window reload or in a later CLI process still has the whole context: the CLI keeps them in
 * `.agent-team/runs/`, the extension in its workspace storage. Each file is written whole and renamed into
 * place (a crash leaves the old one or the new one, never half of one); a link is never read; a file that
 * does not hold messages of the model layer's shape is not used. The oldest files beyond
 * `maxConversations` are removed as a new one is written.
 */
import { lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModelMessage } from '../model/types.js';
import type { ConversationStore } from './conversation-store.js';

/** Task ids as the task manager makes them; anything else is refused before it can name a file. */
const safeId = /^[A-Za-z0-9_-]{1,100}$/;
const suffix = '.conversation.json';

export class FileConversationStore implements ConversationStore {
  /** `maxConversations`: the most kept; the least recently written go first. Default 500. */
  constructor(
    private readonly directory: string,
    private readonly maxConversations = 500,
  ) {}

  async save(rootId: string, messages: readonly ModelMessage[]): Promise<void> {
    if (!safeId.test(rootId)) return;
    await mkdir(this.directory, { recursive: true });
    const file = path.join(this.directory, `${rootId}${suffix}`);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify({ version: 1, messages }), 'utf8');
    await rename(temporary, file);
    // Once per run's end, not per event: one listing, and dates only when over the limit.
    await prune(this.directory, this.maxConversations).catch(() => undefined);
  }

  async load(rootId: string): Promise<ModelMessage[] | undefined> {
    if (!safeId.test(rootId)) return undefined;
    try {
      const file = path.join(this.directory, `${rootId}${suffix}`);
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
  return (
    (message.role === 'user' || message.role === 'assistant') &&
    Array.isArray(message.content) &&
    message.content.every((part) => typeof part === 'object' && part !== null && typeof (part as { type?: unknown }).type === 'string')
  );
}

async function prune(directory: string, maxConversations: number): Promise<void> {
  const names = (await readdir(directory).catch(() => [] as string[])).filter((name) => name.endsWith(suffix));
  if (names.length <= maxConversations) return;
  const dated = await Promise.all(
    names.map(async (name) => ({ name, time: (await stat(path.join(directory, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  dated.sort((a, b) => b.time - a.time);
  await Promise.all(dated.slice(maxConversations).map((entry) => rm(path.join(directory, entry.name), { force: true })));
}
