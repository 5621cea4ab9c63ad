/** A sidebar row's context menu: VS Code calls the commands with the row's data-vscode-context object. */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { delayed, hangingStream, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld();
const rowContext = (taskId: string, taskStatus: string) => ({
  webviewSection: 'task',
  taskId,
  taskStatus,
  isRun: true,
  preventDefaultContextMenuItems: true,
});

describe('the row context menu', () => {
  it('Copy Prompt and Stop take the row the menu was opened on', async () => {
    world.server.enqueue(hangingStream({ text: ['Working'] }));
    const taskId = (await world.extension.execute('agentTeam.delegate', 'Look at the parser', { role: 'researcher' })) as string;
    await world.server.waitForRequest(0);
    await world.extension.execute('agentTeam.copyPrompt', rowContext(taskId, 'running'));
    expect(fake.state.clipboard).toBe('Look at the parser');
    await world.extension.execute('agentTeam.stopTask', rowContext(taskId, 'running'));
    expect((await world.extension.host.taskManager.wait(taskId)).status).toBe('stopped');
  });

  it('is contributed for the rows of our view only, Stop only on a task that can stop, Resume only on an interrupted run, Apply to Branch only on a completed run, Run Checks Again only on a run with proposals, Export Trace only on a run', () => {
    const manifest = JSON.parse(readFileSync(nodePath.join(__dirname, '../../package.json'), 'utf8')) as {
      contributes: { menus: Record<string, Array<{ command: string; when: string }>> };
    };
    const menu = manifest.contributes.menus['webview/context']!;
    expect(menu.map((item) => item.command)).toEqual([
      'agentTeam.stopTask',
      'agentTeam.resumeRun',
      'agentTeam.showTask',
      'agentTeam.reviewChanges',
      'agentTeam.requestChanges',
      'agentTeam.rerunAndCompare',
      'agentTeam.applyToBranch',
      'agentTeam.runChecks',
      'agentTeam.undoAccepted',
      'agentTeam.compactTask',
      'agentTeam.copyPrompt',
      'agentTeam.exportTrace',
    ]);
    for (const item of menu) expect(item.when).toMatch(/^webviewId == 'agentTeam\.tasks' && webviewSection == 'task'/);
    expect(menu[0]!.when).toContain('taskStatus =~ /^(running|queued|waiting)$/');
    expect(menu[1]!.when).toContain("isRun && taskStatus == 'interrupted'");
    expect(menu.find((item) => item.command === 'agentTeam.applyToBranch')!.when).toContain("isRun && taskStatus == 'completed'");
    expect(menu.at(-1)!.when).toContain('isRun');
    expect(menu.find((item) => item.command === 'agentTeam.runChecks')!.when).toContain('isRun && agentTeam.hasPendingChanges');
    expect(menu.find((item) => item.command === 'agentTeam.undoAccepted')!.when).toContain('isRun');
    // Compact: a running task, or a finished run (its kept conversation).
    expect(menu.find((item) => item.command === 'agentTeam.compactTask')!.when).toContain(
      "taskStatus == 'running' || isRun && taskStatus =~ /^(completed|failed|stopped)$/",
    );
  });

  it('Compact on a running task summarises its conversation before its next request', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    world.server.enqueue(
      delayed(toolCallTurn([{ name: 'Read', input: { file_path: 'missing.md' } }], 'Reading.'), answered),
      textTurn('SUMMARY-7: tried to read missing.md'),
      textTurn('Done.'),
    );
    const taskId = (await world.extension.execute('agentTeam.delegate', 'Look at the parser (task text)', {
      role: 'researcher',
    })) as string;
    await world.server.waitForRequest(0);
    await world.extension.execute('agentTeam.compactTask', rowContext(taskId, 'running'));
    release();
    const task = await world.extension.host.taskManager.wait(taskId);
    expect(task.status).toBe('completed');
    expect(world.server.requests[1]!.system).toMatch(/^You summarise the earlier part/);
    const next = JSON.stringify(world.server.requests[2]!.body);
    expect(next).toContain('SUMMARY-7');
    expect(next).toContain('Look at the parser (task text)');
    // The command is not a message the agent reads.
    expect(next).not.toContain('/compact');
  });
});
