/**
 * A planned task's sub-tasks as its todo list (`TaskSnapshot.todos`): the planner's plan is the run's plan
 * the user sees, in the same place as a coordinator's `TodoWrite` list. Each sub-task is `in_progress`
 * while it runs and `completed` once it has ended (whatever its outcome: its own row says how).
 */
import type { TaskWorkContext } from '../tasks/work.js';
import { describePrompt } from '../tasks/describe-prompt.js';
import type { TodoItem, TodoStatus } from '../tasks/todo-item.js';
import { maxTodoTextLength } from '../tasks/todo-item.js';
import type { Plan, PlannedTask } from './plan-schema.js';

export class PlanTodos {
  private readonly statuses: TodoStatus[];

  constructor(
    private readonly context: TaskWorkContext,
    private readonly subTasks: readonly PlannedTask[],
  ) {
    this.statuses = subTasks.map(() => 'pending');
    this.publish();
  }

  started(index: number): void {
    this.set(index, 'in_progress');
  }

  ended(index: number): void {
    this.set(index, 'completed');
  }

  private set(index: number, status: TodoStatus): void {
    this.statuses[index] = status;
    this.publish();
  }

  private publish(): void {
    this.context.setTodos?.(this.subTasks.map((subTask, index): TodoItem => todoOf(subTask, this.statuses[index])));
  }
}

function todoOf(subTask: PlannedTask, status: TodoStatus): TodoItem {
  const content = describePrompt(`${subTask.role ? `[${subTask.role}] ` : ''}${subTask.task}`, maxTodoTextLength);
  return { content, activeForm: content, status };
}

/** A plan as the text the user approves: its kind, then its sub-tasks (or the one agent, of `task.role` or `defaultRole`, doing the task). */
export function planText(plan: Plan | undefined, task: PlannedTask, defaultRole: string): string {
  if (!plan || plan.type === 'llm' || plan.subTasks.length === 0)
    return `One agent (${task.role ?? defaultRole}) does the task:\n${task.task}`;
  const lines = plan.subTasks.map((subTask, index) => `${index + 1}. ${subTask.role ? `[${subTask.role}] ` : ''}${subTask.task}`);
  return `${plan.type === 'parallel' ? 'Side by side, then one answer combining them' : 'One after another'}:\n${lines.join('\n')}\n(Each sub-task may be planned again, one level down, when it starts.)`;
}
