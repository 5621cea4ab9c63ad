/**
 * The command a waiting task waits to be allowed to run: the latest `Bash` call of its transcript without a
 * result yet (the same turn's other calls may have answered meanwhile). Shared by the sidebar (the
 * Command approval region) and @team (which says what is waiting), so both read a transcript the same way.
 */

interface TranscriptLike {
  type: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
}

export interface PendingCommand {
  command: string;
  description?: string;
}

export function pendingCommand(entries: readonly TranscriptLike[]): PendingCommand | undefined {
  const answered = new Set<string>();
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry.type === 'tool-result') {
      if (entry.toolCallId) answered.add(entry.toolCallId);
      continue;
    }
    if (entry.type !== 'tool-call') return undefined;
    if (entry.toolName !== 'Bash' || (entry.toolCallId !== undefined && answered.has(entry.toolCallId))) continue;
    const input = entry.input as { command?: unknown; description?: unknown } | undefined;
    if (typeof input?.command !== 'string') return undefined;
    return {
      command: input.command,
      ...(typeof input.description === 'string' && input.description !== '' ? { description: input.description } : {}),
    };
  }
  return undefined;
}
