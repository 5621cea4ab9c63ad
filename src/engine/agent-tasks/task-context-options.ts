import type { AgentContextOptions } from '../agent/compaction/compactor.js';
import type { ContextPolicy } from '../agent/compaction/context-policy.js';
import type { TaskGrants } from '../capabilities/task-grants.js';
import type { MessageInbox } from '../conversation/message-inbox.js';
import type { Model } from '../model/types.js';

/** The task's window (its model's), when it compacts, and who hears of a compaction or asks for one. */
export function contextOptions(
  policy: ContextPolicy,
  inbox: MessageInbox,
  model: Model,
  taskId: string,
  grants: TaskGrants,
): AgentContextOptions {
  const windowTokens = policy.windowOf(`${model.provider}/${model.modelId}`);
  const compactAt = policy.compactAt;
  return {
    ...(windowTokens === undefined ? {} : { windowTokens }),
    ...(compactAt === undefined ? {} : { compactAt }),
    ...(grants.beforeCompaction ? { beforeCompaction: grants.beforeCompaction } : {}),
    takeCompactionRequest: () => inbox.takeCompaction(taskId),
  };
}
