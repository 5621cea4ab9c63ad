import type { AgentEvent } from '../agent/types.js';
import type { TaskWorkContext } from '../tasks/work.js';

/** Feeds an agent run's events to its task: streamed text, transcript entries, usage, its conversation. */
export function forwardEvent(context: TaskWorkContext, event: AgentEvent): void {
  switch (event.type) {
    case 'text-delta':
      context.appendText(event.text);
      break;
    case 'transcript':
      context.appendTranscript(event.entry);
      break;
    case 'usage':
      context.reportUsage(event.usage);
      break;
    case 'model-switch':
      // Usage from here is this model's, and priced at its price.
      context.setModel(event.model);
      break;
    case 'conversation':
      context.recordConversation?.(event.messages);
      break;
    case 'context':
      context.reportContext?.(event.usedTokens, event.windowTokens);
      break;
    case 'compaction':
      context.recordCompaction?.({
        beforeTokens: event.beforeTokens,
        afterTokens: event.afterTokens,
        summary: event.summary,
        trigger: event.trigger,
      });
      break;
    case 'turn-start':
      break;
  }
}
