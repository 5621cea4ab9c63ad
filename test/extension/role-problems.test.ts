/** Role-file problems in the Problems view, at their file and line, replaced when the files change. */
import { describe, expect, it, vi } from 'vitest';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld({
  files: {
    '.agent-team/agents/broken.md': '---\nname: broken\ntools: [Read]\n---\nNo description above.\n',
    '.agent-team/agents/typo.md': '---\ndescription: Has a typo.\ntols: [Read]\n---\nYou have a typo.\n',
    '.agent-team/workflows/fix.yaml': 'description: Fix it.\ntype: sequential\nsteps:\n  - agent: nobody\n    prompt: Fix {input}\n',
  },
});

describe('role-file problems', () => {
  it('appear in the Problems view at their file and line, errors and warnings apart', async () => {
    const session = await world.extension.host.engine();
    const files = fake.state.diagnostics.get('agentTeam.roles');
    const entries = [...(files ?? new Map())]
      .map(([uri, diagnostics]) => [uri.replace(/^.*\/\.agent-team\//, '.agent-team/'), diagnostics])
      .filter(([uri]) => String(uri).includes('/agents/'));
    expect(entries).toEqual([
      [
        '.agent-team/agents/broken.md',
        [expect.objectContaining({ severity: 0, source: 'Agent Team', message: expect.stringContaining('description') })],
      ],
      ['.agent-team/agents/typo.md', [expect.objectContaining({ severity: 1, line: 2, message: expect.stringContaining("'tols'") })]],
    ]);
    expect(session.listRoles().map((role) => role.name)).toContain('typo');
  });

  it("shows a workflow file's problems too, as errors at the file", async () => {
    await world.extension.host.engine();
    const files = fake.state.diagnostics.get('agentTeam.roles')!;
    const workflow = [...files].find(([uri]) => uri.endsWith('.agent-team/workflows/fix.yaml'));
    expect(workflow?.[1]).toEqual([
      expect.objectContaining({ severity: 0, source: 'Agent Team', message: expect.stringContaining('nobody') }),
    ]);
  });
});
