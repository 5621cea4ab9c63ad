/** "$(loading~spin) 2 running" in the status bar while tasks run; a click opens the sidebar; hidden otherwise. */
import * as vscode from 'vscode';
import type { TaskManager } from '../engine/tasks/index.js';

export class RunningTasksStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly unsubscribe: () => void;

  constructor(private readonly taskManager: TaskManager) {
    this.item = vscode.window.createStatusBarItem('agentTeam.running', vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'Agent Team';
    this.item.command = 'agentTeam.tasks.focus';
    this.unsubscribe = taskManager.onEvent((event) => {
      // Text and transcript events do not change any status: skip the recount.
      if (event.type === 'task-start' || event.type === 'task-update' || event.type === 'task-end') this.update();
    });
    this.update();
  }

  update(): void {
    let running = 0;
    let queued = 0;
    let waiting = 0;
    for (const task of this.taskManager.list()) {
      if (task.status === 'running') running++;
      else if (task.status === 'queued') queued++;
      else if (task.status === 'waiting') waiting++;
    }
    if (running + queued + waiting === 0) {
      this.item.hide();
      return;
    }
    const parts = [`${running} running`, ...(waiting > 0 ? [`${waiting} waiting for you`] : []), ...(queued > 0 ? [`${queued} queued`] : [])];
    this.item.text = `$(${waiting > 0 ? 'question' : 'loading~spin'}) ${parts.join(', ')}`;
    this.item.tooltip = `Agent Team: ${running} task${running === 1 ? '' : 's'} running${waiting > 0 ? `, ${waiting} waiting for your answer` : ''}${queued > 0 ? `, ${queued} waiting for a slot` : ''}. Click to show them.`;
    this.item.show();
  }

  dispose(): void {
    this.unsubscribe();
    this.item.dispose();
  }
}
