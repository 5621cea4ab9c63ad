/**
 * Records a manager's events and checks the invariants every test relies on: each task starts with
 * `task-start`, ends with exactly one `task-end`, emits nothing after it, and never leaves a terminal
 * status once it has reached one.
 */
import { expect } from 'vitest';
import type { TaskManager } from '../../../src/engine/tasks/task-manager.js';
import { type TaskEvent, type TaskSnapshot, isTerminal } from '../../../src/engine/tasks/types.js';

export class EventLog {
  readonly events: TaskEvent[] = [];
  readonly unsubscribe: () => void;

  constructor(manager: TaskManager) {
    this.unsubscribe = manager.onEvent((event) => this.events.push(event));
  }

  forTask(taskId: string): TaskEvent[] {
    return this.events.filter((event) => taskIdOf(event) === taskId);
  }

  types(taskId: string): string[] {
    return this.forTask(taskId).map((event) => event.type);
  }

  /** Statuses seen in the task's snapshots, in order, without repeats. */
  statuses(taskId: string): string[] {
    const statuses: string[] = [];
    for (const event of this.forTask(taskId)) {
      if (!('task' in event)) continue;
      if (statuses[statuses.length - 1] !== event.task.status) statuses.push(event.task.status);
    }
    return statuses;
  }

  endOf(taskId: string): TaskSnapshot | undefined {
    const end = this.forTask(taskId).find((event) => event.type === 'task-end');
    return end && 'task' in end ? end.task : undefined;
  }

  assertWellFormed(): void {
    const ids = new Set(this.events.map(taskIdOf));
    for (const id of ids) {
      const events = this.forTask(id);
      expect(events[0]?.type, `first event of ${id}`).toBe('task-start');
      const ends = events.filter((event) => event.type === 'task-end');
      expect(ends.length, `task-end count of ${id}`).toBeLessThanOrEqual(1);
      if (ends.length === 1) expect(events[events.length - 1]?.type, `last event of ${id}`).toBe('task-end');
      let terminal: string | undefined;
      for (const event of events) {
        if (!('task' in event)) continue;
        expect(Object.isFrozen(event.task), 'snapshots are frozen').toBe(true);
        if (terminal) expect(event.task.status, `status of ${id} after it became ${terminal}`).toBe(terminal);
        if (isTerminal(event.task.status)) terminal = event.task.status;
      }
      if (ends.length === 1) expect(terminal, `task-end of ${id} is terminal`).toBeDefined();
    }
  }
}

function taskIdOf(event: TaskEvent): string {
  return 'task' in event ? event.task.id : event.taskId;
}
