/**
 * Stacked proposals: a task reads through the pending proposals of the tasks of its tree that ended
 * before it started, so "refactorer then reviewer" reviews the actual proposal; parallel siblings and
 * tasks that started earlier do not see it; and a later edit that builds on a rejected one is a conflict.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyChangeSet } from '../../src/engine/changes/apply.js';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { AgentTeam } from '../../src/engine/team/agent-team.js';
import { RoleRegistry } from '../../src/engine/roles/role-registry.js';
import { createWorkspaceToolbox } from '../../src/engine/file-tools/workspace-toolbox.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import type { WorkflowDefinition } from '../../src/engine/workflows/workflow-definition.js';
import { loadWorkflows } from '../../src/engine/workflows/workflow-registry.js';
import { MemoryRoleFiles, lastMessageText } from '../delegation/team-harness.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const { toolCall } = ScriptedModel;
let root: string;
let taskManager: TaskManager;
let changes: ChangeSetRegistry;
let roles: RoleRegistry;
let roleFiles: MemoryRoleFiles;
let team: AgentTeam;
let models: Map<string, ScriptedModel>;
const model = (role: string) => {
  if (!models.has(role)) models.set(role, new ScriptedModel([], { modelId: role }));
  return models.get(role) as ScriptedModel;
};

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'agent-team-stacked-'));
  await writeFile(path.join(root, 'a.txt'), 'original\n');
  const clock = new ManualClock();
  taskManager = new TaskManager({ clock, onWarning: () => {} });
  changes = new ChangeSetRegistry();
  roleFiles = new MemoryRoleFiles();
  roles = new RoleRegistry({ knownTools: knownToolNames, source: roleFiles, clock });
  await roles.load();
  models = new Map();
  const workspace = new NodeWorkspace(root);
  team = new AgentTeam({
    taskManager,
    roles,
    toolbox: createWorkspaceToolbox({ workspace, changes, taskManager }),
    modelFor: (role) => model(role),
  });
});

afterEach(async () => {
  await taskManager.close();
  roles.dispose();
  await rm(root, { recursive: true, force: true });
});

async function workflow(text: string): Promise<{ workflow: WorkflowDefinition; workflows: Map<string, WorkflowDefinition> }> {
  roleFiles.files.set('.agent-team/workflows/w.yaml', text);
  const [entry] = await loadWorkflows(roleFiles, {
    hasRole: (name) => roles.get(name) !== undefined,
    roleNames: () => [],
    knownTools: knownToolNames,
  });
  expect(entry.problems).toEqual([]);
  const definition = entry.workflow as WorkflowDefinition;
  return { workflow: definition, workflows: new Map([['w', definition]]) };
}

const readResultOf = (role: string, call: number) => lastMessageText(model(role).calls[call].request);

describe('stacked proposals', () => {
  it('a reviewer after a refactorer reads its proposal; its own edit builds on it; rejecting the first makes the second a conflict', async () => {
    const sequence = await workflow(
      'description: Fix then review.\ntype: sequential\nsteps:\n  - agent: refactorer\n    prompt: Fix a.txt\n  - agent: reviewer\n    prompt: Review a.txt\n',
    );
    roleFiles.files.set(
      '.agent-team/agents/reviewer.md',
      '---\nname: reviewer\ndescription: Reviews and touches up.\ntools: [Read, Edit]\n---\nReview.',
    );
    await roles.load();
    model('refactorer').enqueue([toolCall('Write', { file_path: 'a.txt', content: 'fixed by the refactorer\n' })], 'Fixed.');
    model('reviewer').enqueue(
      [toolCall('Read', { file_path: 'a.txt' })],
      [toolCall('Edit', { file_path: 'a.txt', old_string: 'fixed by the refactorer', new_string: 'fixed and reviewed' })],
      'Reviewed.',
    );
    const { task } = await team.runWorkflow({ ...sequence, input: 'go' });
    expect(task.status).toBe('completed');
    expect(readResultOf('reviewer', 1)).toContain('fixed by the refactorer');
    const [refactorer, reviewer] = taskManager.children(task.id);
    const reviewerSet = changes.get(reviewer.id);
    // The reviewer's proposal is against what it saw: only its own change shows in its diff.
    expect(reviewerSet?.file('a.txt')).toMatchObject({ baseContent: 'fixed by the refactorer\n', proposedContent: 'fixed and reviewed\n' });
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('original\n');

    // The user rejects the refactorer's edit, then accepts the reviewer's: a conflict, nothing written.
    changes.get(refactorer.id)?.reject();
    reviewerSet?.accept();
    const report = await applyChangeSet(reviewerSet!, new NodeWorkspace(root));
    expect(report.files.map((file) => file.outcome)).toEqual(['conflict']);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('original\n');
  });

  it('accepting both, in order, applies both', async () => {
    const sequence = await workflow(
      'description: Fix then fix more.\ntype: sequential\nsteps:\n  - agent: refactorer\n    prompt: One\n  - agent: refactorer\n    prompt: Two\n',
    );
    model('refactorer').enqueue(
      [toolCall('Edit', { file_path: 'a.txt', old_string: 'original', new_string: 'step one' })],
      'One done.',
      [toolCall('Edit', { file_path: 'a.txt', old_string: 'step one', new_string: 'step two' })],
      'Two done.',
    );
    const { task } = await team.runWorkflow({ ...sequence, input: 'go' });
    expect(task.status).toBe('completed');
    for (const child of taskManager.children(task.id)) {
      const set = changes.get(child.id)!;
      set.accept();
      expect((await applyChangeSet(set, new NodeWorkspace(root))).files.map((file) => file.outcome)).toEqual(['applied']);
    }
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('step two\n');
  });

  it('a parallel sibling and a task that started earlier do not see the proposal; a later subagent does', async () => {
    const hold = ScriptedModel.held([], [toolCall('Read', { file_path: 'a.txt' })]);
    // The coordinator starts a refactorer and a reviewer in the background at once, waits for the
    // refactorer, reads a.txt itself, then starts a researcher in the foreground.
    model('coordinator').enqueue(
      [
        toolCall('Agent', { subagent_type: 'refactorer', description: 'Fix', prompt: 'Fix a.txt', run_in_background: true }),
        toolCall('Agent', { subagent_type: 'reviewer', description: 'Look', prompt: 'Read a.txt', run_in_background: true }),
      ],
      [toolCall('TaskOutput', { task_id: 't2' })],
      [toolCall('Read', { file_path: 'a.txt' })],
      [toolCall('Agent', { subagent_type: 'researcher', description: 'Check', prompt: 'Read a.txt' })],
      'Done.',
    );
    model('refactorer').enqueue([toolCall('Write', { file_path: 'a.txt', content: 'proposed\n' })], 'Fixed.');
    model('reviewer').enqueue(hold, 'Seen.');
    model('researcher').enqueue([toolCall('Read', { file_path: 'a.txt' })], 'Seen.');
    const run = team.delegate({ prompt: 'Fix and check a.txt' });
    await hold.reached;
    await taskManager.wait('t2');
    hold.release();
    await run;
    expect(readResultOf('reviewer', 1)).toContain('original');
    expect(readResultOf('coordinator', 3)).toContain('original');
    expect(readResultOf('researcher', 1)).toContain('proposed');
  });
});
