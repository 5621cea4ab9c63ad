/** A role with `mcpServers` in the team: its tools offered to it only, called by its model, the server gone after the task. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { calculatorRoleFile } from '../support/calculator-role.js';
import { createTeamHarness, lastMessageText, toolNamesOf } from '../delegation/team-harness.js';

const { toolCall } = ScriptedModel;
let directory: string;

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'agent-team-role-mcp-'));
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const roleFile = (pidFile: string) => calculatorRoleFile(pidFile);

const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

describe('roles with MCP servers', () => {
  it('the role alone gets the tools; its model calls one; the server stops when the task ends', async () => {
    const pidFile = path.join(directory, 'calc.pid');
    const harness = await createTeamHarness({ mcp: { allowed: () => true, cwd: directory } });
    harness.roleFiles.files.set('.agent-team/agents/calculator.md', roleFile(pidFile));
    await harness.roles.load();
    harness
      .model('coordinator')
      .enqueue([toolCall('Agent', { subagent_type: 'calculator', description: 'Add', prompt: 'What is 2 + 3?' })], 'It is 5.');
    harness.model('calculator').enqueue([toolCall('mcp__calc__add', { a: 2, b: 3 })], 'The sum is 5.');
    const run = await harness.team.delegate({ prompt: 'Add 2 and 3' });
    expect(run.task.status).toBe('completed');
    const calculatorRequests = harness.model('calculator').calls.map((call) => call.request);
    expect(toolNamesOf(calculatorRequests[0]!)).toEqual(expect.arrayContaining(['mcp__calc__add', 'mcp__calc__echo']));
    expect(lastMessageText(calculatorRequests[1]!)).toBe('5');
    expect(toolNamesOf(harness.model('coordinator').calls[0]!.request).some((name) => name.startsWith('mcp__'))).toBe(false);
    expect(gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    await harness.taskManager.close();
  });

  it('Stop ends the task and its server at once', async () => {
    const pidFile = path.join(directory, 'calc.pid');
    const harness = await createTeamHarness({ mcp: { allowed: () => true, cwd: directory } });
    harness.roleFiles.files.set('.agent-team/agents/calculator.md', roleFile(pidFile));
    await harness.roles.load();
    const thinking = ScriptedModel.held([ScriptedModel.text('Thinking')]);
    harness.model('calculator').enqueue(thinking);
    const run = await harness.team.delegate({ prompt: 'Add forever', role: 'calculator', mode: 'background' });
    await thinking.reached;
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(gone(pid)).toBe(false);
    await harness.taskManager.stop(run.task.id);
    expect((await harness.taskManager.wait(run.task.id)).status).toBe('stopped');
    expect(gone(pid)).toBe(true);
    await harness.taskManager.close();
  });

  it('where MCP servers may not start, the role runs without them and its transcript and agent say why', async () => {
    const pidFile = path.join(directory, 'calc.pid');
    const harness = await createTeamHarness({ mcp: { allowed: () => false, cwd: directory } });
    harness.roleFiles.files.set('.agent-team/agents/calculator.md', roleFile(pidFile));
    await harness.roles.load();
    harness.model('calculator').enqueue('I cannot add without my calculator.');
    const run = await harness.team.delegate({ prompt: 'Add 2 and 3', role: 'calculator' });
    expect(run.task.status).toBe('completed');
    expect(harness.taskManager.transcript(run.task.id)[0]).toEqual({
      type: 'notice',
      text: "MCP server 'calc' was not started: this folder is not trusted (VS Code: Manage Workspace Trust; the CLI: agent-team trust, or --trust).",
    });
    expect(harness.model('calculator').calls[0]!.request.system).toContain('# Unavailable tools');
    expect(toolNamesOf(harness.model('calculator').calls[0]!.request).some((name) => name.startsWith('mcp__'))).toBe(false);
    await harness.taskManager.close();
  });
});
