/** How one A2A task's events go out on its bus: progress, the streamed answer, and its states. */
import { randomUUID } from 'node:crypto';
import type { ExecutionEventBus } from '@a2a-js/sdk/server';
import { AgentEvent } from '@a2a-js/sdk/server';
import { artifactUpdate, dataPart, message, statusUpdate, type TaskStateName, textPart, thoughtMetadata } from '../../a2a/a2a-objects.js';
import type { Usage } from '../../model/types.js';

/** The artifact that carries the answer, streamed and then replaced whole by the final text. */
export const answerArtifactId = 'answer';

/**
 * The tree's usage where A2A clients read it: ours as `usage`, Google ADK's as `adk_usage_metadata` (in the
 * shape of Gemini's usage metadata). Sent once, with the answer's last chunk, so no client counts it twice.
 */
function usageMetadata(usage: Usage): Record<string, unknown> {
  return {
    usage,
    adk_usage_metadata: {
      promptTokenCount: usage.inputTokens,
      candidatesTokenCount: usage.outputTokens,
      totalTokenCount: usage.inputTokens + usage.outputTokens,
    },
  };
}

/** Publishes one A2A task's events on its bus. */
export class TaskVoice {
  private answerStarted = false;

  constructor(
    private readonly bus: ExecutionEventBus,
    private readonly taskId: string,
    private readonly contextId: string,
  ) {}

  /** A line of progress: a `working` status whose text is marked as the agent's thinking, not its answer. */
  progress(text: string): void {
    this.status('working', text, true);
  }

  status(state: TaskStateName, text?: string, thought = false): void {
    const said =
      text === undefined
        ? undefined
        : message({
            role: 'agent',
            messageId: randomUUID(),
            parts: [textPart(text, thought ? { ...thoughtMetadata } : undefined)],
            taskId: this.taskId,
            contextId: this.contextId,
          });
    this.bus.publish(AgentEvent.statusUpdate(statusUpdate(this.taskId, this.contextId, state, said)));
  }

  /** A chunk of the answer as it streams; `whole`: the final answer, which replaces what was streamed. */
  answer(text: string, whole: boolean, usage?: Usage, structured?: { value: unknown }): void {
    const append = !whole && this.answerStarted;
    this.answerStarted = true;
    const metadata = usage ? usageMetadata(usage) : undefined;
    this.bus.publish(
      AgentEvent.artifactUpdate(
        artifactUpdate(this.taskId, this.contextId, {
          artifactId: answerArtifactId,
          name: 'answer',
          parts: structured ? [textPart(text), dataPart(structured.value)] : [textPart(text)],
          append,
          lastChunk: whole,
          metadata,
        }),
      ),
    );
  }
}
