/**
 * Request Changes: a finished subagent's proposal sent back with the user's comment. The same agent goes
 * on with its whole conversation, its edits revise the same change set (one coherent change to accept),
 * and the revision is a task under the one it revises.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyChangeSet } from '../../src/engine/changes/apply.js';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { MemoryConversationStore } from '../../src/engine/conversation/conversation-store.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { AgentTeam } from '../../src/engine/team/agent-team.js';
import { RoleRegistry } from '../../src/engine/roles/role-registry.js';
import { createWorkspaceToolbox } from '../../src/engine/file-tools/workspace-toolbox.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { MemoryRoleFiles, lastMessageText } from '../delegation/team-harness.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const { toolCall } = ScriptedModel;
let root: string;
let taskManager: TaskManager;
let changes: ChangeSetRegistry;
let roles: RoleRegistry;
let models: Map<string, ScriptedModel>;
const model = (role: string) => {
  if (!models.has(role)) models.set(role, new ScriptedModel([], { modelId: role }));
  return models.get(role) as ScriptedModel;
};

function team(keepSubagentConversations: boolean): AgentTeam {
  const workspace = new NodeWorkspace(root);
  return new AgentTeam({
    taskManager,
    roles,
    toolbox: createWorkspaceToolbox({ workspace, changes, taskManager }),
    modelFor: (role) => model(role),
    conversations: new MemoryConversationStore(),
    keepSubagentConversations,
  });
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'agent-team-revision-'));
  await writeFile(path.join(root, 'a.txt'), 'one\ntwo\n');
  const clock = new ManualClock();
  taskManager = new TaskManager({ clock, onWarning: () => {} });
  changes = new ChangeSetRegistry();
  roles = new RoleRegistry({ knownTools: knownToolNames, source: new MemoryRoleFiles(), clock });
  await roles.load();
  models = new Map();
});

afterEach(async () => {
  await taskManager.close();
  roles.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('request changes', () => {
  it('the subagent goes on with its conversation and revises the same proposal, which applies as one change', async () => {
    const agentTeam = team(true);
    model('coordinator').enqueue(
      [toolCall('Agent', { subagent_type: 'refactorer', description: 'Rename two', prompt: 'Rename two in a.txt' })],
      'Done.',
    );
    model('refactorer').enqueue([toolCall('Edit', { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' })], 'Renamed two to TWO.');
    const run = await agentTeam.delegate({ prompt: 'Rename two' });
    const refactorer = taskManager.list().find((task) => task.role === 'refactorer')!;
    expect(run.task.status).toBe('completed');
    expect(changes.get(refactorer.id)!.file('a.txt')!.proposedContent).toBe('one\nTWO\n');

    model('refactorer').enqueue([toolCall('Edit', { file_path: 'a.txt', old_string: 'TWO', new_string: 'Two' })], 'Now Two.');
    const revision = await agentTeam.requestChanges({ taskId: refactorer.id, comment: 'Use title case, not capitals.' });
    expect(revision.task).toMatchObject({
      parentId: refactorer.id,
      role: 'refactorer',
      status: 'completed',
      description: 'Revision: Use title case, not capitals.',
    });
    // Its conversation went on: the first request, its edit and answer, then the comment.
    const request = model('refactorer').calls[2]!.request;
    expect(JSON.stringify(request.messages)).toContain('Rename two in a.txt');
    expect(JSON.stringify(request.messages)).toContain('Renamed two to TWO.');
    expect(lastMessageText(request)).toContain('Use title case, not capitals.');
    // It read its own proposal (TWO) and revised it in place: one change set, base to the revision.
    expect(changes.get(revision.task.id)).toBeUndefined();
    const file = changes.get(refactorer.id)!.file('a.txt')!;
    expect([file.baseContent, file.proposedContent]).toEqual(['one\ntwo\n', 'one\nTwo\n']);
    const changeSet = changes.get(refactorer.id)!;
    changeSet.accept({ path: 'a.txt' });
    await applyChangeSet(changeSet, new NodeWorkspace(root));
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('one\nTwo\n');
  });

  it('says why it cannot: an empty comment, a running task, a coordinator, a conversation not kept', async () => {
    const withoutKept = team(false);
    model('coordinator').enqueue([toolCall('Agent', { subagent_type: 'researcher', description: 'Look', prompt: 'Look' })], 'Done.');
    model('researcher').enqueue('Found it.');
    await withoutKept.delegate({ prompt: 'Look' });
    const researcher = taskManager.list().find((task) => task.role === 'researcher')!;
    await expect(withoutKept.requestChanges({ taskId: researcher.id, comment: ' ' })).rejects.toThrow('The request is empty');
    await expect(withoutKept.requestChanges({ taskId: researcher.id, comment: 'More.' })).rejects.toThrow(
      /conversation of task t2 is no longer kept/,
    );
    await expect(withoutKept.requestChanges({ taskId: 't1', comment: 'More.' })).rejects.toThrow(
      /not a subagent's work that can be revised/,
    );
    await expect(withoutKept.requestChanges({ taskId: 't9', comment: 'More.' })).rejects.toThrow(/no task t9/);
  });
});
