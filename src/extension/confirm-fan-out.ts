import * as vscode from 'vscode';
import type { FanOutRequest } from '../engine/delegation/fan-out.js';

/** Asks, in a modal, whether one turn may start this many subagents at once. */
export async function confirmFanOut(request: FanOutRequest): Promise<boolean> {
  const shown = request.descriptions.slice(0, 10).join('; ');
  const more = request.descriptions.length > 10 ? `; and ${request.descriptions.length - 10} more` : '';
  const picked = await vscode.window.showWarningMessage(
    `The ${request.role} (${request.taskId}) wants to start ${request.count} subagents at once.`,
    { modal: true, detail: `${shown}${more}.\n\nMore than agentTeam.confirmFanOutAbove subagents in one step ask first. Deny: none starts, and the ${request.role} is told to start fewer.` },
    'Allow',
  );
  return picked === 'Allow';
}
