import { describe, expect, it } from 'vitest';
import { builtInRoles } from '../../src/engine/roles/built-in/index.js';
import { loadRoles } from '../../src/engine/roles/load-roles.js';
import { roleFile, useTemporaryWorkspaces } from './workspace-fixture.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const createWorkspace = useTemporaryWorkspaces();

describe('role precedence', () => {
  it('lets a workspace role replace a built-in of the same name, in place, and records the built-in it hid', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.agent-team/agents/reviewer.md', roleFile('description: Our house reviewer.\ntools: [Read]', 'Review our way.'));

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(diagnostics).toEqual([]);
    expect(roles.map((role) => role.name)).toEqual(['researcher', 'reviewer', 'refactorer']);
    const reviewer = roles[1];
    expect(reviewer.description).toBe('Our house reviewer.');
    expect(reviewer.instruction).toBe('Review our way.');
    expect(reviewer.source).toEqual({ kind: 'file', path: '.agent-team/agents/reviewer.md', format: 'agent-team' });
    expect(reviewer.overridden).toEqual([{ kind: 'built-in' }]);
  });

  it('prefers .agent-team over .claude over .github for the same name, recording each hidden file', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.github/agents/helper.agent.md', roleFile('description: From Copilot.'));
    await workspace.write('.claude/agents/helper.md', roleFile('description: From Claude.'));
    await workspace.write('.agent-team/agents/helper.md', roleFile('description: From Agent Team.'));
    await workspace.write('.github/agents/second.agent.md', roleFile('description: Second from Copilot.'));
    await workspace.write('.claude/agents/second.md', roleFile('description: Second from Claude.'));

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(diagnostics).toEqual([]);
    const helper = roles.find((role) => role.name === 'helper');
    expect(helper?.description).toBe('From Agent Team.');
    expect(helper?.overridden).toEqual([
      { kind: 'file', path: '.claude/agents/helper.md', format: 'claude' },
      { kind: 'file', path: '.github/agents/helper.agent.md', format: 'github' },
    ]);
    expect(roles.find((role) => role.name === 'second')?.description).toBe('Second from Claude.');
    expect(roles.filter((role) => role.name === 'helper')).toHaveLength(1);
  });

  it('keeps the first file by name when two files of one format define the same role, and warns about the other', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.agent-team/agents/a-first.md', roleFile('name: twin\ndescription: First.'));
    await workspace.write('.agent-team/agents/b-second.md', roleFile('name: twin\ndescription: Second.'));

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(roles.find((role) => role.name === 'twin')?.description).toBe('First.');
    expect(diagnostics).toEqual([
      {
        path: '.agent-team/agents/b-second.md',
        severity: 'warning',
        message: "defines role 'twin', which .agent-team/agents/a-first.md already defines; this file is ignored",
      },
    ]);
  });

  it('lists built-ins first, then workspace roles, and gives the built-ins alone in an empty workspace', async () => {
    const workspace = await createWorkspace();
    expect(await loadRoles(workspace.source, knownToolNames)).toEqual({ roles: builtInRoles, diagnostics: [] });

    await workspace.write('.claude/agents/zeta.md', roleFile('description: Z.'));
    await workspace.write('.agent-team/agents/alpha.md', roleFile('description: A.'));
    const { roles } = await loadRoles(workspace.source, knownToolNames);
    expect(roles.map((role) => role.name)).toEqual(['researcher', 'reviewer', 'refactorer', 'alpha', 'zeta']);
  });
});
