/**
 * `agentTeam.modelContextWindows` and `agentTeam.compactAt`, as the engine's context policy: read at each
 * task's start (a change applies to the next task), the window table built again only when the value
 * changed, each bad entry logged once per change. Both from the user's own settings only: a folder must not
 * make its agents' conversations lose their earlier turns (a tiny window) or never compact.
 */
import * as vscode from 'vscode';
import { type ContextPolicy, ContextWindowTable, defaultCompactAt, isCompactAt, parseContextWindows } from '../engine/index.js';

export class SettingContextWindows implements ContextPolicy {
  private key: string | undefined;
  private table = new ContextWindowTable();

  constructor(private readonly log: Pick<vscode.LogOutputChannel, 'warn'>) {}

  windowOf(model: string): number | undefined {
    return this.current().windowOf(model);
  }

  get compactAt(): number {
    const value = vscode.workspace.getConfiguration('agentTeam').inspect<unknown>('compactAt')?.globalValue;
    return isCompactAt(value) ? value : defaultCompactAt;
  }

  private current(): ContextWindowTable {
    const value = vscode.workspace.getConfiguration('agentTeam').inspect<unknown>('modelContextWindows')?.globalValue;
    const key = JSON.stringify(value ?? null);
    if (key !== this.key) {
      this.key = key;
      const { windows, problems } = parseContextWindows(value, 'agentTeam.modelContextWindows');
      for (const problem of problems) this.log.warn(problem);
      this.table = new ContextWindowTable(windows);
    }
    return this.table;
  }
}
