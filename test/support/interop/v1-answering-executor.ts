/**
 * The `AgentExecutor` of the agents built on the 1.x SDK's server (protocol 1.0 types; the SDK's 0.3
 * compatibility layer translates them for 0.3 clients): it says the interop script — a task, a working
 * status, the first chunk, then at the release the last chunk and `completed` — and answers a cancel with
 * `canceled`, recording both in the journal.
 */
import { randomUUID } from 'node:crypto';
import { type Artifact, type Message, type Part, Role, TaskState, type TaskStatus } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { createDeferred, type Deferred } from '../../../src/engine/util/deferred.js';
import type { AgentJournal } from './agent-journal.js';
import { interopScript } from './interop-agent.js';

export function v1AnsweringExecutor(journal: AgentJournal): AgentExecutor {
  const running = new Map<string, { contextId: string; cancelled: Deferred<void> }>();
  return {
    async execute(context: RequestContext, bus: ExecutionEventBus) {
      const { taskId, contextId, userMessage } = context;
      const prompt = userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
      journal.recordPrompt(prompt);
      const cancelled = createDeferred();
      running.set(taskId, { contextId, cancelled });
      const statusUpdate = (status: TaskStatus) => bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status, metadata: undefined }));
      const chunk = (text: string, append: boolean, lastChunk: boolean) =>
        bus.publish(
          AgentEvent.artifactUpdate({ taskId, contextId, append, lastChunk, artifact: answerArtifact(text), metadata: undefined }),
        );

      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: status(TaskState.TASK_STATE_SUBMITTED),
          artifacts: [],
          history: [userMessage],
          metadata: undefined,
        }),
      );
      statusUpdate(status(TaskState.TASK_STATE_WORKING, agentMessage(taskId, contextId, interopScript.progress(prompt))));
      chunk(interopScript.chunks[0], false, false);
      journal.recordStarted();
      const outcome = await Promise.race([
        journal.released.then(() => 'answer' as const),
        cancelled.promise.then(() => 'cancelled' as const),
      ]);
      running.delete(taskId);
      // A cancelled task has had its last event from cancelTask.
      if (outcome === 'cancelled') return;
      chunk(interopScript.chunks[1], true, true);
      statusUpdate(status(TaskState.TASK_STATE_COMPLETED));
      bus.finished();
    },
    async cancelTask(taskId: string, bus: ExecutionEventBus) {
      journal.recordCancel(taskId);
      const turn = running.get(taskId);
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId: turn?.contextId ?? '',
          status: status(TaskState.TASK_STATE_CANCELED),
          metadata: undefined,
        }),
      );
      bus.finished();
      turn?.cancelled.resolve();
    },
  };
}

function status(state: TaskState, message?: Message): TaskStatus {
  return { state, message, timestamp: new Date().toISOString() };
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function agentMessage(taskId: string, contextId: string, text: string): Message {
  return {
    messageId: randomUUID(),
    taskId,
    contextId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function answerArtifact(text: string): Artifact {
  return { artifactId: 'answer', name: 'answer', description: '', parts: [textPart(text)], metadata: undefined, extensions: [] };
}
