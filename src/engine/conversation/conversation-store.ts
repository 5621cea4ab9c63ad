/**
 * Where a run's conversation is kept after it ends, so a follow-up can continue it with its context: on
 * disk (file-conversation-store.ts: the CLI's `.agent-team/runs`, the extension's workspace storage), or
 * in memory where there is no storage.
 */
import type { ModelMessage } from '../model/types.js';

export interface ConversationStore {
  /** The run's conversation so far (the root agent's messages, its subagents' answers in them). */
  save(rootId: string, messages: readonly ModelMessage[]): Promise<void>;
  /** Undefined when the run's conversation is not kept (an unknown run, or history that is gone). */
  load(rootId: string): Promise<ModelMessage[] | undefined>;
}

/** Conversations in memory, for the life of the process (a window with no workspace storage, the tests). */
export class MemoryConversationStore implements ConversationStore {
  private readonly conversations = new Map<string, readonly ModelMessage[]>();

  /** `maxConversations`: the most kept; the least recently saved go first. Default 200. */
  constructor(private readonly maxConversations = 200) {}

  async save(rootId: string, messages: readonly ModelMessage[]): Promise<void> {
    // Re-inserted, so the map's order is the order of saving and the oldest is first.
    this.conversations.delete(rootId);
    this.conversations.set(rootId, [...messages]);
    for (const oldest of this.conversations.keys()) {
      if (this.conversations.size <= this.maxConversations) break;
      this.conversations.delete(oldest);
    }
  }

  async load(rootId: string): Promise<ModelMessage[] | undefined> {
    const messages = this.conversations.get(rootId);
    return messages ? [...messages] : undefined;
  }
}
