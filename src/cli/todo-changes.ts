/**
 * Which task updates changed a task's todo list (`TaskSnapshot.todos`, written with `TodoWrite` or a
 * planned task's sub-tasks): the CLI says each change once, as a `todo` JSON event or as lines on the
 * terminal, and nothing for the many updates that leave the list as it was.
 */
import { sameTodos, type TaskSnapshot, type TodoItem, todoLines, todoProgress } from '../engine/index.js';
import { terminalSafe } from './terminal-text.js';

export class TodoChanges {
  private readonly lists = new Map<string, readonly TodoItem[]>();

  /** The task's new list when this snapshot changed it; undefined otherwise. */
  changed(task: TaskSnapshot): readonly TodoItem[] | undefined {
    if (task.todos === undefined || sameTodos(this.lists.get(task.id), task.todos)) return undefined;
    this.lists.set(task.id, task.todos);
    return task.todos;
  }
}

/** The terminal's lines for a changed list: a header naming the task and its progress, then one line per item. */
export function todoText(task: Pick<TaskSnapshot, 'id' | 'role'>, todos: readonly TodoItem[]): string {
  // Items come from models: nothing in them may act on the terminal.
  return `${terminalSafe(`[${task.id} ${task.role}] todo list (${todoProgress(todos)}):`)}\n${todoLines(todos)
    .map((line) => `  ${terminalSafe(line)}`)
    .join('\n')}\n`;
}
