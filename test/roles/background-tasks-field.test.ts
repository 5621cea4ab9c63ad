/** The role-file field `backgroundTasks`: `wait` (the default) or `hand-to-parent`; anything else is an error naming both. */
import { describe, expect, it } from 'vitest';
import { loadRoles } from '../../src/engine/roles/load-roles.js';
import { roleFile, useTemporaryWorkspaces } from './workspace-fixture.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const createWorkspace = useTemporaryWorkspaces();

async function load(header: string) {
  const workspace = await createWorkspace();
  await workspace.write('.agent-team/agents/scout.md', roleFile(`description: Scouts.\n${header}`));
  const result = await loadRoles(workspace.source, knownToolNames);
  return { role: result.roles.find((role) => role.name === 'scout'), diagnostics: result.diagnostics };
}

describe('backgroundTasks in a role file', () => {
  it('hand-to-parent is kept', async () => {
    const { role, diagnostics } = await load('backgroundTasks: hand-to-parent');
    expect(diagnostics).toEqual([]);
    expect(role?.backgroundTasks).toBe('hand-to-parent');
  });

  it('absent means wait, with no warning', async () => {
    const { role, diagnostics } = await load('mode: single_turn');
    expect(diagnostics).toEqual([]);
    expect(role).not.toHaveProperty('backgroundTasks');
  });

  it('another value is an error naming the values it may take', async () => {
    const { role, diagnostics } = await load('backgroundTasks: later');
    expect(role).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        line: 3,
        message: "'backgroundTasks' must be one of wait, hand-to-parent (got 'later')",
      }),
    ]);
  });
});
