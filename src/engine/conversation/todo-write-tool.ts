/**
 * `TodoWrite {todos}` (Claude Code's shape): the agent writes its whole todo list each time, and the list
 * replaces the one before. The engine checks it strictly (an unknown field, an empty text or a status
 * other than the three is an error result naming the item) and shows it on the task: in the sidebar under
 * the run, in `@team`'s answer, in the CLI and the trace (`TaskSnapshot.todos`).
 */
import * as z from 'zod';
import { defineTool, type Tool } from '../agent/tool.js';
import { type TodoItem, todoListSchemas, todoProgress } from '../tasks/todo-item.js';
import { builtOnFirstUse } from '../util/built-on-first-use.js';

export const todoWriteToolName = 'TodoWrite';

const todoWriteInput = builtOnFirstUse(() =>
  z.strictObject({
    todos: todoListSchemas.strict.describe('The whole list, every item with its current status: it replaces the list you wrote before.'),
  }),
);

export type TodoWriteInput = z.infer<ReturnType<typeof todoWriteInput>>;

export function createTodoWriteTool(write: (todos: TodoItem[]) => void): Tool<TodoWriteInput> {
  return defineTool({
    name: todoWriteToolName,
    description:
      'Write your plan as a todo list the user sees while you work. Send the whole list each time (it replaces the one before), each item with content (imperative: "Run the tests"), activeForm (the same while it happens: "Running the tests") and status: pending, in_progress or completed. Keep one item in_progress at a time where you can, and mark items completed as soon as they are done.',
    inputSchema: todoWriteInput(),
    readOnly: true,
    async execute(input) {
      write(input.todos);
      return `Todo list updated (${todoProgress(input.todos)}).`;
    },
  });
}
