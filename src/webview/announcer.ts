/**
 * Says task state changes to screen readers: a visually hidden `role="status"` (`aria-live="polite"`)
 * region that reads "researcher: Find usages — completed" when a task ends, waits for the user, or a run
 * starts. Rows change silently otherwise (a live region on the tree would read every token count).
 * Only changes the user would act on are said, and one update's changes as one sentence list, so a burst
 * of subagents finishing is not a queue of interruptions.
 */
import { type ProtocolTask } from '../shared/protocol.js';
import { createElement } from './dom.js';
import { taskAriaLabel } from './status.js';

type TaskStatus = ProtocolTask['status'];

/** Statuses worth an announcement when a task reaches them. */
const announced: ReadonlySet<TaskStatus> = new Set<TaskStatus>(['waiting', 'completed', 'failed', 'stopped', 'interrupted']);

export class StatusAnnouncer {
  /** The live region; place it anywhere in the sidebar (it takes no space). */
  readonly element: HTMLDivElement;

  constructor(document: Document) {
    this.element = createElement(document, 'div', {
      className: 'visually-hidden',
      attributes: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' },
    });
  }

  /**
   * Call with a `task-upsert`'s tasks before the store applies them: `previous` reads the state shown so
   * far. A new run (a root) is said as started; a known task as it reaches an announced status.
   */
  note(tasks: readonly ProtocolTask[], previous: (taskId: string) => ProtocolTask | undefined): void {
    const said: string[] = [];
    for (const task of tasks) {
      const before = previous(task.id);
      if (before === undefined) {
        if (task.parentId === null) said.push(taskAriaLabel(task));
        continue;
      }
      if (before.status !== task.status && announced.has(task.status)) said.push(taskAriaLabel(task));
    }
    if (said.length === 0) return;
    const text = said.join('. ');
    // The same words again (a second run of one task) must still be read: a region only speaks on change.
    this.element.textContent = this.element.textContent === text ? `${text}.` : text;
  }
}
