/**
 * The run's plan as a todo list, in Claude Code's `TodoWrite` shape: items with `content` (what is to be
 * done, imperative), `status` and `activeForm` (the same, as it reads while in progress). Defined once,
 * like the task snapshot it rides on: the strict variant checks the tool's input and the sidebar
 * protocol, the lenient one reads the run history.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import { defineVariants } from '../util/schema-variants.js';

export const todoStatusSchema = z.enum(['pending', 'in_progress', 'completed']);

export type TodoStatus = z.infer<typeof todoStatusSchema>;

/** Longer items are a brief, not a plan step: refused rather than cut, so nothing is lost silently. */
export const maxTodoTextLength = 500;

/** More items than this is not a plan anyone can read at a glance. */
export const maxTodoItems = 100;

const todoText = (what: string) =>
  z.string().trim().min(1, `${what} must not be empty`).max(maxTodoTextLength, `${what} is longer than ${maxTodoTextLength} characters`);

export const todoListSchemas = defineVariants((variant) =>
  z
    .array(
      variant.object({
        content: todoText('content').describe('What is to be done, in the imperative: "Find where sessions are stored".'),
        status: todoStatusSchema.describe('pending, in_progress (what is being worked on now) or completed.'),
        activeForm: todoText('activeForm').describe('The same step as it reads while in progress: "Finding where sessions are stored".'),
      }),
    )
    .max(maxTodoItems, `a todo list holds at most ${maxTodoItems} items`),
);

export type TodoItem = z.infer<typeof todoListSchemas.strict>[number];

const marks: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/** One line per item, `[x] content` (an item in progress reads in its active form), for terminals, chat and questions. */
export function todoLines(todos: readonly TodoItem[]): string[] {
  return todos.map((todo) => `${marks[todo.status]} ${todo.status === 'in_progress' ? todo.activeForm : todo.content}`);
}

/** `2/5 done`, for one-line summaries. */
export function todoProgress(todos: readonly TodoItem[]): string {
  return `${todos.filter((todo) => todo.status === 'completed').length}/${todos.length} done`;
}

/** True when two lists say the same (a view shows a change only once). */
export function sameTodos(left: readonly TodoItem[] | undefined, right: readonly TodoItem[] | undefined): boolean {
  if (left === right) return true;
  if (!left || !right || left.length !== right.length) return false;
  return left.every(
    (todo, index) =>
      todo.content === right[index].content && todo.status === right[index].status && todo.activeForm === right[index].activeForm,
  );
}
