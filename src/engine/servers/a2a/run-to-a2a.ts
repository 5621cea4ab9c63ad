/** A served run as its A2A client sees it: its progress as status lines, and the state it ended in. */
import type { TaskEvent, TaskSnapshot } from '../../tasks/types.js';
import type { TaskStateName } from '../../a2a/a2a-objects.js';
import type { TaskVoice } from './task-voice.js';

/** What of the run an A2A client sees: the root's streamed text and steps, and its subagents coming and going. */
export function forward(event: TaskEvent, rootId: string, say: TaskVoice): void {
  if (event.type === 'task-text-delta' && event.taskId === rootId) say.answer(event.text, false);
  else if (event.type === 'task-transcript' && event.taskId === rootId) {
    const entry = event.entry;
    if (entry.type === 'tool-call') say.progress(`calling ${entry.toolName}`);
    else if (entry.type === 'notice') say.progress(entry.text);
  } else if (event.type === 'task-start' && event.task.rootId === rootId && event.task.id !== rootId) {
    say.progress(`${event.task.role} started: ${event.task.description}`);
  } else if (event.type === 'task-end' && event.task.rootId === rootId && event.task.id !== rootId) {
    say.progress(`${event.task.role} ${event.task.status}: ${event.task.description}`);
  }
}

/**
 * The A2A state a run ended in. A2A has no `interrupted`: a run cut short by the server shutting down is
 * `canceled` like a stopped one (its client cannot resume it here), and says why in its message.
 */
export function stateOf(root: TaskSnapshot): TaskStateName {
  switch (root.status) {
    case 'completed':
      return 'completed';
    case 'stopped':
    case 'interrupted':
      return 'canceled';
    default:
      return 'failed';
  }
}

/** The words with the final state: why a run failed or was interrupted; nothing for the others. */
export function finalWordsOf(root: TaskSnapshot): string | undefined {
  if (root.status === 'failed') return root.error ?? 'the run failed';
  if (root.status === 'interrupted') return 'the run was interrupted: Agent Team shut down before it finished';
  return undefined;
}
