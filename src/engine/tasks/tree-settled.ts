/**
 * Waiting for a run to settle: its whole tree ended, background subagents included. The one way the CLI
 * and the protocol servers (MCP, A2A) wait for a run before answering.
 */
import type { TaskManager } from './task-manager.js';
import { isTerminal, type TaskSnapshot } from './types.js';

/** The task's end snapshot once every task of its tree has ended. */
export async function treeSettled(taskManager: TaskManager, taskId: string): Promise<TaskSnapshot> {
  for (;;) {
    const open = taskManager.treeOf(taskId).filter((task) => !isTerminal(task.status));
    if (open.length === 0) return taskManager.get(taskId) as TaskSnapshot;
    await Promise.all(open.map((task) => taskManager.wait(task.id)));
  }
}
