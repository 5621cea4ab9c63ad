/**
 * "$(loading~spin) 2 running · $0.042 · context 72 %" in the status bar while tasks run (with what the runs under
 * way have cost so far, and the fullest context window among the tasks at work); a click opens the sidebar;
 * hidden otherwise.
 */
import * as vscode from 'vscode';
import {
  addCost,
  type Cost,
  Disposable,
  formatCost,
  type TaskManager,
  type TaskSnapshot,
  type TaskStatus,
  zeroCost,
} from '../engine/index.js';

export class RunningTasksStatus extends Disposable implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  /**
   * The tasks at work (running, queued, waiting) and their runs, kept from the events: recounting the
   * whole history at every status change would walk a thousand finished rows each time a subagent's turn
   * ends (B15 in docs/performance.md). A loaded history holds ended tasks only, so seeding from `list()`
   * once and following the events from then on counts the same tasks as `list()` would.
   */
  private readonly atWork = new Map<string, { status: TaskStatus; rootId: string; context: number }>();

  constructor(private readonly taskManager: TaskManager) {
    super();
    this.item = this.register(vscode.window.createStatusBarItem('agentTeam.running', vscode.StatusBarAlignment.Left, 0));
    this.item.name = 'Agent Team';
    this.item.command = 'agentTeam.tasks.focus';
    for (const task of taskManager.list()) this.note(task);
    this.register(
      taskManager.onEvent((event) => {
        // Text and transcript events do not change any status: skip the recount.
        if (event.type === 'task-start' || event.type === 'task-update' || event.type === 'task-end') {
          this.note(event.task);
          this.update();
        }
      }),
    );
    this.update();
  }

  update(): void {
    let running = 0;
    let queued = 0;
    let waiting = 0;
    // What the runs under way have cost so far: their roots' tree costs.
    let cost: Cost = zeroCost;
    const liveRoots = new Set<string>();
    for (const task of this.atWork.values()) {
      if (task.status === 'running') running++;
      else if (task.status === 'queued') queued++;
      else if (task.status === 'waiting') waiting++;
      liveRoots.add(task.rootId);
    }
    for (const rootId of liveRoots) cost = addCost(cost, this.taskManager.get(rootId)?.treeCost ?? zeroCost);
    const spent = cost.usd > 0 || cost.unpricedTokens > 0 ? ` · ${formatCost(cost)}` : '';
    // The fullest context window of the tasks at work: the one nearest a compaction.
    const fullest = Math.max(0, ...[...this.atWork.values()].map((task) => task.context));
    const context = fullest > 0 ? ` · context ${Math.round(fullest * 100)} %` : '';
    if (running + queued + waiting === 0) {
      this.item.hide();
      return;
    }
    const parts = [
      vscode.l10n.t('{0} running', running),
      ...(waiting > 0 ? [vscode.l10n.t('{0} waiting for you', waiting)] : []),
      ...(queued > 0 ? [vscode.l10n.t('{0} queued', queued)] : []),
    ];
    this.item.text = `$(${waiting > 0 ? 'question' : 'loading~spin'}) ${parts.join(', ')}${spent}${context}`;
    const details = [
      running === 1 ? vscode.l10n.t('1 task running') : vscode.l10n.t('{0} tasks running', running),
      ...(waiting > 0 ? [vscode.l10n.t('{0} waiting for your answer', waiting)] : []),
      ...(queued > 0 ? [vscode.l10n.t('{0} waiting for a slot', queued)] : []),
    ].join(', ');
    const fullness = context
      ? vscode.l10n.t(
          '; the fullest context window is {0} % full (compacted past the agentTeam.compactAt setting)',
          Math.round(fullest * 100),
        )
      : '';
    this.item.tooltip = spent
      ? vscode.l10n.t(
          'Agent Team: {0}; the runs under way have cost {1} so far{2}. Click to show them.',
          details,
          formatCost(cost),
          fullness,
        )
      : vscode.l10n.t('Agent Team: {0}{1}. Click to show them.', details, fullness);
    this.item.show();
  }

  private note(task: TaskSnapshot): void {
    if (task.status === 'running' || task.status === 'queued' || task.status === 'waiting')
      this.atWork.set(task.id, { status: task.status, rootId: task.rootId, context: contextFraction(task) });
    else this.atWork.delete(task.id);
  }
}

/** How full the task's context window is (0 to 1), 0 when unknown. */
export function contextFraction(task: Pick<TaskSnapshot, 'context'>): number {
  const window = task.context?.windowTokens;
  return window ? Math.min(1, (task.context?.usedTokens ?? 0) / window) : 0;
}
