import { describe, expect, it } from 'vitest';
import { loadRoles } from '../../src/engine/roles/load-roles.js';
import { type RoleDefinition } from '../../src/engine/roles/types.js';
import { roleFile, useTemporaryWorkspaces } from './workspace-fixture.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const createWorkspace = useTemporaryWorkspaces();

function find(roles: readonly RoleDefinition[], name: string): RoleDefinition {
  const role = roles.find((candidate) => candidate.name === name);
  if (!role) throw new Error(`role ${name} not loaded; got ${roles.map((candidate) => candidate.name).join(', ')}`);
  return role;
}

describe('role file formats', () => {
  it('reads .agent-team/agents/*.md with every field of the documented format', async () => {
    const workspace = await createWorkspace();
    await workspace.write(
      '.agent-team/agents/security-reviewer.md',
      [
        '---',
        'name: security-reviewer',
        'description: Reviews changes for security problems. Use after edits that touch auth.',
        "tools: [Read, Grep, Glob]        # allowlist; omitted = the role's defaults",
        'model: claude-sonnet-4-5',
        'mode: single_turn',
        'max_turns: 20',
        '---',
        'You are a security reviewer.',
        '',
        'Check every input.',
        '',
      ].join('\n'),
    );

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(diagnostics).toEqual([]);
    expect(find(roles, 'security-reviewer')).toEqual({
      name: 'security-reviewer',
      description: 'Reviews changes for security problems. Use after edits that touch auth.',
      instruction: 'You are a security reviewer.\n\nCheck every input.',
      tools: ['Read', 'Grep', 'Glob'],
      model: 'claude-sonnet-4-5',
      mode: 'single_turn',
      maxTurns: 20,
      source: { kind: 'file', path: '.agent-team/agents/security-reviewer.md', format: 'agent-team' },
    });
  });

  it('defaults the name to the file name, the mode to single_turn, and leaves tools and model to the run', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.agent-team/agents/doc-writer.md', roleFile('description: Writes docs.', 'Write clear docs.'));

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(diagnostics).toEqual([]);
    const role = find(roles, 'doc-writer');
    expect(role.mode).toBe('single_turn');
    expect(role).not.toHaveProperty('tools');
    expect(role).not.toHaveProperty('model');
    expect(role).not.toHaveProperty('maxTurns');
  });

  it('reads Claude Code agents: comma-separated tools, tool renames, model aliases and maxTurns', async () => {
    const workspace = await createWorkspace();
    await workspace.write(
      '.claude/agents/test-fixer.md',
      roleFile(
        'name: test-fixer\ndescription: Fixes failing tests.\ntools: Read, Grep, Glob, MultiEdit, Task\nmodel: sonnet\nmaxTurns: 12\ncolor: green',
        'Fix the tests.',
      ),
    );
    await workspace.write(
      '.claude/agents/planner.md',
      roleFile('name: planner\ndescription: Plans.\ntools:\n  - Read\n  - Edit\nmodel: inherit'),
    );

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(diagnostics).toEqual([]);
    expect(find(roles, 'test-fixer')).toMatchObject({
      tools: ['Read', 'Grep', 'Glob', 'Edit', 'Agent'],
      model: 'sonnet',
      maxTurns: 12,
      mode: 'single_turn',
      instruction: 'Fix the tests.',
      source: { kind: 'file', path: '.claude/agents/test-fixer.md', format: 'claude' },
    });
    const planner = find(roles, 'planner');
    expect(planner.tools).toEqual(['Read', 'Edit']);
    expect(planner).not.toHaveProperty('model');
  });

  it("reads a Claude Code description with unquoted colons, as Claude Code's own files often have, with a warning", async () => {
    const workspace = await createWorkspace();
    await workspace.write(
      '.claude/agents/explainer.md',
      roleFile(
        [
          'name: explainer',
          'description: Explains code. Examples:',
          '<example>',
          'user: "What does this do?"',
          '</example>',
          'model: haiku',
        ].join('\n'),
      ),
    );

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    const role = find(roles, 'explainer');
    expect(role.description).toBe('Explains code. Examples:\n<example>\nuser: "What does this do?"\n</example>');
    expect(role.model).toBe('haiku');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ path: '.claude/agents/explainer.md', severity: 'warning' });
    expect(diagnostics[0].message).toMatch(/not valid YAML.*quote/);
  });

  it('applies Claude Code disallowedTools to the allowlist or to the defaults', async () => {
    const workspace = await createWorkspace();
    await workspace.write(
      '.claude/agents/no-write.md',
      roleFile('description: Edits but never creates files.\ndisallowedTools: Write, Bash'),
    );

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(diagnostics).toEqual([]);
    expect(find(roles, 'no-write').tools).toEqual(['Read', 'Glob', 'Grep', 'Skill', 'Edit']);
  });

  it('reads Copilot custom agents from .github/agents/*.agent.md, named after the file', async () => {
    const workspace = await createWorkspace();
    await workspace.write(
      '.github/agents/api-docs.agent.md',
      roleFile(
        "description: 'Documents the public API'\ntools: ['read', 'search', 'edit']\nmodel: Claude Sonnet 4.5\ntarget: vscode",
        '# API docs\nDocument it.',
      ),
    );
    await workspace.write('.github/agents/notes.md', roleFile('description: Not an agent file: wrong suffix.'));

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(diagnostics).toEqual([]);
    expect(find(roles, 'api-docs')).toEqual({
      name: 'api-docs',
      description: 'Documents the public API',
      instruction: '# API docs\nDocument it.',
      tools: ['Read', 'Glob', 'Grep', 'Edit', 'Write'],
      model: 'Claude Sonnet 4.5',
      mode: 'single_turn',
      source: { kind: 'file', path: '.github/agents/api-docs.agent.md', format: 'github' },
    });
    expect(roles.some((role) => role.name === 'notes')).toBe(false);
  });

  it("names a Copilot agent after its file when its 'name' is a display name, with a warning", async () => {
    const workspace = await createWorkspace();
    await workspace.write(
      '.github/agents/code-reviewer.agent.md',
      roleFile("name: 'Code Reviewer'\ndescription: Reviews code.\nmodel: ['GPT-5 (copilot)', 'Claude Sonnet 4']"),
    );

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(find(roles, 'code-reviewer').model).toBe('GPT-5 (copilot)');
    expect(diagnostics).toEqual([
      expect.objectContaining({
        path: '.github/agents/code-reviewer.agent.md',
        severity: 'warning',
        line: 2,
        message: expect.stringContaining("'code-reviewer'"),
      }),
    ]);
  });

  it('treats tools: ["*"] as all default tools and tools: [] as none', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.github/agents/everything.agent.md', roleFile("description: Uses all.\ntools: ['*']"));
    await workspace.write('.agent-team/agents/thinker.md', roleFile('description: Only thinks.\ntools: []'));

    const { roles } = await loadRoles(workspace.source, knownToolNames);

    expect(find(roles, 'everything')).not.toHaveProperty('tools');
    expect(find(roles, 'thinker').tools).toEqual([]);
  });

  it('reads files with Windows line endings and a byte order mark', async () => {
    const workspace = await createWorkspace();
    await workspace.write(
      '.agent-team/agents/crlf.md',
      '\uFEFF---\r\ndescription: Windows file.\r\nmode: chat\r\n---\r\nBody line one.\r\nLine two.\r\n',
    );

    const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);

    expect(diagnostics).toEqual([]);
    expect(find(roles, 'crlf')).toMatchObject({ description: 'Windows file.', mode: 'chat', instruction: 'Body line one.\nLine two.' });
  });
});
