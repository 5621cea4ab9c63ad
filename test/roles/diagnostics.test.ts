import { describe, expect, it } from 'vitest';
import { formatRoleDiagnostic } from '../../src/engine/roles/format-diagnostic.js';
import { loadRoles } from '../../src/engine/roles/load-roles.js';
import { type RoleFileSource } from '../../src/engine/roles/role-file-source.js';
import { roleFile, useTemporaryWorkspaces } from './workspace-fixture.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const createWorkspace = useTemporaryWorkspaces();

/** Loads one broken .agent-team file next to a good one; returns the broken file's diagnostics. */
async function diagnose(text: string, fileName = 'broken.md') {
  const workspace = await createWorkspace();
  await workspace.write(`.agent-team/agents/${fileName}`, text);
  await workspace.write('.agent-team/agents/good.md', roleFile('description: Still loads.'));
  const result = await loadRoles(workspace.source, knownToolNames);
  expect(result.roles.map((role) => role.name)).toContain('good');
  return result;
}

describe('role file diagnostics', () => {
  it('reports bad YAML as an error naming the file and the line, and skips only that file', async () => {
    const { roles, diagnostics } = await diagnose('---\ndescription: Fine.\ntools: [Read, Grep\nmode: task\n---\nBody.\n');

    expect(roles.some((role) => role.name === 'broken')).toBe(false);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ path: '.agent-team/agents/broken.md', severity: 'error', line: 4 });
    expect(diagnostics[0].message).toMatch(/^front matter is not valid YAML: .*\]/);
    expect(formatRoleDiagnostic(diagnostics[0])).toMatch(/^\.agent-team\/agents\/broken\.md:4: error: front matter is not valid YAML/);
  });

  it('reports a missing description', async () => {
    const { diagnostics } = await diagnose(roleFile('mode: task'));
    expect(diagnostics).toEqual([
      { path: '.agent-team/agents/broken.md', severity: 'error', message: expect.stringContaining("is missing 'description'") },
    ]);
    expect(formatRoleDiagnostic(diagnostics[0])).toMatch(/^\.agent-team\/agents\/broken\.md: error: is missing/);
  });

  it('reports an empty body', async () => {
    const { roles, diagnostics } = await diagnose('---\ndescription: No instructions.\n---\n\n   \n');
    expect(roles.some((role) => role.name === 'broken')).toBe(false);
    expect(diagnostics).toEqual([
      { path: '.agent-team/agents/broken.md', severity: 'error', message: expect.stringContaining('has no instructions') },
    ]);
  });

  it('reports a bad mode on its line, listing the valid ones', async () => {
    const { diagnostics } = await diagnose(roleFile('description: D.\nmode: background'));
    expect(diagnostics).toEqual([
      {
        path: '.agent-team/agents/broken.md',
        severity: 'error',
        line: 3,
        message: "mode 'background' is not one of single_turn, task, chat",
      },
    ]);
  });

  it.each([['0'], ['-3'], ['2.5'], ['many']])('reports max_turns: %s as not a positive whole number', async (value) => {
    const { roles, diagnostics } = await diagnose(roleFile(`description: D.\nmax_turns: ${value}`));
    expect(roles.some((role) => role.name === 'broken')).toBe(false);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        path: '.agent-team/agents/broken.md',
        severity: 'error',
        line: 3,
        message: expect.stringContaining("'max_turns' must be a positive whole number"),
      }),
    ]);
  });

  it('reports a file without front matter, and one whose front matter never closes', async () => {
    expect((await diagnose('Just some notes.\n')).diagnostics[0]).toMatchObject({
      severity: 'error',
      line: 1,
      message: expect.stringContaining('has no front matter'),
    });
    expect((await diagnose('---\ndescription: D.\nBody without a closing line.\n')).diagnostics[0]).toMatchObject({
      severity: 'error',
      message: expect.stringContaining('never closed'),
    });
  });

  it('reports an invalid name with a suggestion, and the reserved name coordinator', async () => {
    const invalid = await diagnose(roleFile('name: Security Reviewer!\ndescription: D.'));
    expect(invalid.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', line: 2, message: expect.stringContaining("'security-reviewer'") }),
    ]);
    const fromFileName = await diagnose(roleFile('description: D.'), 'my agent.md');
    expect(fromFileName.diagnostics[0]).toMatchObject({
      path: '.agent-team/agents/my agent.md',
      severity: 'error',
      message: expect.stringContaining("'my agent'"),
    });
    const reserved = await diagnose(roleFile('name: coordinator\ndescription: D.'));
    expect(reserved.diagnostics[0]).toMatchObject({ severity: 'error', message: expect.stringContaining('reserved') });
    expect(reserved.roles.some((role) => role.name === 'coordinator')).toBe(false);
  });

  it('reports every problem of a file at once', async () => {
    const { diagnostics } = await diagnose('---\nmode: later\nmax_turns: 0\n---\n');
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      expect.stringContaining("is missing 'description'"),
      expect.stringContaining('has no instructions'),
      expect.stringContaining("mode 'later'"),
      expect.stringContaining("'max_turns'"),
    ]);
  });

  it('warns about unknown fields in our own format (likely typos) but loads the role', async () => {
    const { roles, diagnostics } = await diagnose(roleFile('description: D.\nmaxturns: 5'));
    expect(roles.some((role) => role.name === 'broken')).toBe(true);
    expect(diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', line: 3, message: expect.stringContaining("unknown field 'maxturns'") }),
    ]);
  });

  it('rejects bad YAML in a Claude file when it cannot be read as key: value lines either', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.claude/agents/broken.md', '---\n- just\n- a list\n---\nBody.\n');
    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);
    expect(roles.some((role) => role.name === 'broken')).toBe(false);
    expect(diagnostics).toEqual([expect.objectContaining({ path: '.claude/agents/broken.md', severity: 'error' })]);
  });

  it('turns an unreadable file or directory into an error and still loads the rest', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.agent-team/agents/good.md', roleFile('description: Still loads.'));
    await workspace.write('.agent-team/agents/locked.md', roleFile('description: Cannot be read.'));
    const source: RoleFileSource = {
      list: (directory) =>
        directory === '.claude/agents' ? Promise.reject(new Error('permission denied')) : workspace.source.list(directory),
      read: (path) => (path.endsWith('locked.md') ? Promise.reject(new Error('EACCES')) : workspace.source.read(path)),
    };

    const { roles, diagnostics } = await loadRoles(source, knownToolNames);

    expect(roles.map((role) => role.name)).toContain('good');
    expect(diagnostics).toEqual([
      { path: '.agent-team/agents/locked.md', severity: 'error', message: 'could not be read: EACCES' },
      { path: '.claude/agents', severity: 'error', message: 'could not list the role files in this directory: permission denied' },
    ]);
  });
});
