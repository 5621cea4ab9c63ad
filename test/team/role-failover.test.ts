/**
 * A role file's `fallbackModels` through the team, with a model chooser that knows nothing of failover (the
 * extension's: it makes the model of each id): the role's model, then its fallbacks in order; the task's
 * model and transcript follow the switch; a chooser's own fallbacks (the CLI's `--fallback-model`) come
 * after the role's.
 */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/engine/errors.js';
import { withFallbacks } from '../../src/engine/model/failover-model.js';
import type { Model } from '../../src/engine/model/types.js';
import { RoleRegistry } from '../../src/engine/roles/role-registry.js';
import { AgentTeam } from '../../src/engine/team/agent-team.js';
import type { ModelChooser } from '../../src/engine/team/team-options.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { MemoryRoleFiles } from '../delegation/team-harness.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const overloaded = () =>
  new ProviderError('server', 'the server failed (529, 3 attempts): Overloaded', { provider: 'scripted', status: 529 });

async function teamWith(roleFile: string) {
  const clock = new ManualClock();
  const roleFiles = new MemoryRoleFiles();
  roleFiles.files.set('.agent-team/agents/writer.md', roleFile);
  const roles = new RoleRegistry({ knownTools: knownToolNames, source: roleFiles, clock });
  await roles.load();
  const taskManager = new TaskManager({ clock, maxConcurrent: 4, onWarning: () => {} });
  const team = new AgentTeam({ taskManager, roles, toolbox: () => ({ readOnly: [], edit: [], proposals: async () => [] }) });
  return { team, taskManager };
}

function chooser(models: Record<string, ScriptedModel>, runFallbacks: readonly Model[] = []): ModelChooser {
  return (_role, override) => withFallbacks(models[override ?? 'run-model'] as ScriptedModel, runFallbacks);
}

describe("a role file's fallbackModels, through the team", () => {
  it('goes on with the role\u2019s fallbacks in order, then the chooser\u2019s own; the task names the model and says why', async () => {
    const { team, taskManager } = await teamWith(
      '---\ndescription: Writes.\nmodel: role-model\nfallbackModels: [role-fallback]\n---\nYou write.\n',
    );
    const models = {
      'run-model': new ScriptedModel([], { modelId: 'run-model' }),
      'role-model': new ScriptedModel([overloaded()], { modelId: 'role-model' }),
      'role-fallback': new ScriptedModel([overloaded()], { modelId: 'role-fallback' }),
    };
    const runFallback = new ScriptedModel(['Written on the run\u2019s fallback.'], { modelId: 'run-fallback' });
    const { task } = await team.delegate({ prompt: 'Write it', role: 'writer', modelFor: chooser(models, [runFallback]) });
    expect(task).toMatchObject({ status: 'completed', output: 'Written on the run\u2019s fallback.', model: 'scripted/run-fallback' });
    const notices = (await taskManager.readTranscript(task.id))
      .filter((entry) => entry.type === 'notice')
      .map((entry) => (entry as { text: string }).text);
    expect(notices).toEqual([
      'model scripted/role-model failed (the server failed (529, 3 attempts): Overloaded); continuing on scripted/role-fallback',
      'model scripted/role-fallback failed (the server failed (529, 3 attempts): Overloaded); continuing on scripted/run-fallback',
    ]);
    expect(models['run-model'].callTotal).toBe(0);
  });

  it('a role without fallbacks, on a chooser without any, fails on an outage as before', async () => {
    const { team } = await teamWith('---\ndescription: Writes.\nmodel: role-model\n---\nYou write.\n');
    const models = {
      'run-model': new ScriptedModel([], { modelId: 'run-model' }),
      'role-model': new ScriptedModel([overloaded()], { modelId: 'role-model' }),
    };
    const { task } = await team.delegate({ prompt: 'Write it', role: 'writer', modelFor: chooser(models) });
    expect(task).toMatchObject({ status: 'failed', error: expect.stringContaining('529') });
  });
});
