/** What an agent run knows of its context window, and who hears of a compaction (the loop's option `context`). */

/** `auto`: past `compactAt`; `overflow`: the provider refused the request as too long; `manual`: `/compact`. */
export type CompactionTrigger = 'auto' | 'overflow' | 'manual';

export interface AgentContextOptions {
  /** The model's window in tokens; undefined when unknown (no compaction ahead of time). */
  windowTokens?: number;
  /** The fraction of the window past which the conversation is compacted. Default 0.8. */
  compactAt?: number;
  /** Called before each compaction (the `PreCompact` hook); it cannot prevent it. Default: none. */
  beforeCompaction?: (trigger: CompactionTrigger, signal: AbortSignal) => Promise<void>;
  /** Asked before each request after the first: a string (`/compact`'s focus, maybe '') compacts now. Default: none. */
  takeCompactionRequest?: () => string | undefined;
}
