/** A QuickPick of tasks, newest first, for the commands that take a task id but were given none. */
import * as vscode from 'vscode';
import type { TaskSnapshot, TaskStatus } from '../../engine/index.js';

const statusIcons: Record<TaskStatus, string> = {
  queued: 'clock',
  running: 'sync~spin',
  waiting: 'question',
  completed: 'pass',
  failed: 'error',
  stopped: 'debug-stop',
  interrupted: 'debug-pause',
};

export interface TaskPickOptions {
  title: string;
  placeHolder: string;
  /** Extra text after the id and status, e.g. the number of files to review. */
  describe?: (task: TaskSnapshot) => string | undefined;
}

/** The picked task's id; undefined when cancelled. */
export async function pickTask(tasks: readonly TaskSnapshot[], options: TaskPickOptions): Promise<string | undefined> {
  const items = [...tasks].reverse().map((task) => ({
    label: `$(${statusIcons[task.status]}) ${task.role}: ${task.description}`,
    description: [task.id, task.status, options.describe?.(task)].filter((part) => part).join(' \u00b7 '),
    taskId: task.id,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: options.title,
    placeHolder: options.placeHolder,
    matchOnDescription: true,
  });
  return picked?.taskId;
}
