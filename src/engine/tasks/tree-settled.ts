/**
 * Waiting for a run to settle: its whole tree ended, background subagents included. The one way the CLI
 * and the protocol servers (MCP, A2A) wait for a run before answering.
 *
 * "Ended" is the task's `task-end`, not its status: a stopped task is `stopped` at once, while its work
 * may still be winding down (a remote role cancelling its remote task), and what it says then, and its
 * `task-end`, must come before the run's end is reported.
 */
import type { TaskManager } from './task-manager.js';
import type { TaskSnapshot } from './types.js';

/** The task's end snapshot once every task of its tree has ended. */
export async function treeSettled(taskManager: TaskManager, taskId: string): Promise<TaskSnapshot> {
  for (;;) {
    const tree = taskManager.treeOf(taskId);
    // `wait` resolves at once for a task that has ended; a task started meanwhile is caught next round.
    await Promise.all(tree.map((task) => taskManager.wait(task.id)));
    if (taskManager.treeOf(taskId).length === tree.length) return taskManager.get(taskId) as TaskSnapshot;
  }
}
