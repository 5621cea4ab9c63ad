/** New Role…: a short form becomes a sound role file, opened for editing; an existing file is kept. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';
import { capabilityDescriptors } from '../../src/engine/team/capabilities.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld({ files: { '.agent-team/agents/existing.md': '---\ndescription: Here already.\n---\nKeep me.\n' } });

describe('New Role…', () => {
  it('writes .agent-team/agents/<name>.md from the form, opens it, and the role loads', async () => {
    fake.state.inputBoxAnswers.push(
      () => 'api-reviewer',
      () => 'Reviews API changes: breaking ones first.',
      () => '',
    );
    fake.state.quickPickAnswers.push(({ items }) => items.filter((item) => ['Read', 'Grep', 'WebFetch'].includes(item.label)));
    await world.extension.execute('agentTeam.newRole');

    const file = path.join(world.extension.root, '.agent-team/agents/api-reviewer.md');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('description: "Reviews API changes: breaking ones first."');
    expect(text).toMatch(/tools:\n\s+- Read\n\s+- Grep\n\s+- WebFetch/);
    expect(text).not.toContain('model:');
    expect(fake.state.builtinCommands).toContainEqual({ command: 'vscode.open', args: [expect.objectContaining({ fsPath: file })] });
    // The tools offered start from what a role file without a tool list gets.
    const offered = fake.state.quickPicks.at(-1)!.items as Array<{ label: string; picked?: boolean }>;
    expect(offered.filter((item) => item.picked).map((item) => item.label)).toEqual(['Read', 'Glob', 'Grep', 'Edit', 'Write', 'Skill']);
    // Every tool a role may name is offered, with the purpose its capability declares, and nothing else.
    const declared = capabilityDescriptors.flatMap((descriptor) => descriptor.tools).filter((tool) => tool.listedInRoles !== false);
    expect(offered.map((item) => [item.label, (item as { description?: string }).description])).toEqual(
      declared.map((tool) => [tool.name, tool.purpose]),
    );
    expect(offered.map((item) => item.label)).toEqual(expect.arrayContaining(['Bash', 'WebFetch', 'Skill', 'Agent', 'SendMessage']));

    const session = await world.extension.host.engine();
    await session.roles.reload();
    expect(session.listRoles().find((role) => role.name === 'api-reviewer')).toMatchObject({ tools: ['Read', 'Grep', 'WebFetch'] });
  });

  it('never overwrites a role file that exists, and says so', async () => {
    fake.state.inputBoxAnswers.push(() => 'existing');
    await world.extension.execute('agentTeam.newRole');
    expect(readFileSync(path.join(world.extension.root, '.agent-team/agents/existing.md'), 'utf8')).toContain('Keep me.');
    expect(fake.state.messages.at(-1)?.message).toContain('.agent-team/agents/existing.md already exists');
    expect(existsSync(path.join(world.extension.root, '.agent-team/agents/undefined.md'))).toBe(false);
  });
});
