/**
 * `fallbackModels` in role files: a list (or one id) of the models the role's tasks go on with when its
 * model is down; read strictly, each id once; a Copilot agent file's `model` list brings its fallbacks;
 * a remote role ignores it, saying so.
 */
import { describe, expect, it } from 'vitest';
import { loadRoles } from '../../src/engine/roles/load-roles.js';
import { roleFile, useTemporaryWorkspaces } from './workspace-fixture.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const createWorkspace = useTemporaryWorkspaces();

async function load(path: string, frontMatter: string) {
  const workspace = await createWorkspace();
  await workspace.write(path, roleFile(frontMatter));
  const { roles, diagnostics } = await loadRoles(workspace.source, knownToolNames);
  return { role: roles.find((role) => role.source.kind === 'file'), diagnostics };
}

describe('fallbackModels in role files', () => {
  it('reads a list, trimmed, each model once, in every format', async () => {
    for (const path of ['.agent-team/agents/writer.md', '.claude/agents/writer.md', '.github/agents/writer.agent.md']) {
      const { role, diagnostics } = await load(
        path,
        'description: Writes.\nmodel: claude-opus-4-5\nfallbackModels: [" claude-sonnet-4-5", claude-haiku-4-5, claude-sonnet-4-5]',
      );
      expect(diagnostics).toEqual([]);
      expect(role?.model).toBe('claude-opus-4-5');
      expect(role?.fallbackModels).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5']);
    }
  });

  it('takes one id written alone, and leaves the field out when there is none', async () => {
    expect((await load('.agent-team/agents/writer.md', 'description: Writes.\nfallbackModels: gpt-5-mini')).role?.fallbackModels).toEqual([
      'gpt-5-mini',
    ]);
    expect((await load('.agent-team/agents/writer.md', 'description: Writes.')).role).not.toHaveProperty('fallbackModels');
  });

  it.each([
    ['a number', 'fallbackModels: 3', "'fallbackModels' must be a list of model ids"],
    ['a list with a blank', 'fallbackModels: [gpt-5, ""]', "'fallbackModels' must be a list of model ids"],
    ['an id with a space', 'fallbackModels: ["gpt 5"]', "'fallbackModels' holds 'gpt 5', which is not a model id"],
    ['inherit', 'fallbackModels: [inherit]', "'fallbackModels' holds 'inherit', which is not a model id"],
    ['too many', 'fallbackModels: [a, b, c, d, e, f]', "'fallbackModels' names 6 models; at most 5"],
  ])('refuses %s, naming the field and its line', async (_name, field, message) => {
    const { role, diagnostics } = await load('.agent-team/agents/writer.md', `description: Writes.\n${field}`);
    expect(role).toBeUndefined();
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'error', line: 3, message: expect.stringContaining(message) })]);
  });

  it("takes a Copilot agent file's model list as the model and its fallbacks", async () => {
    const { role, diagnostics } = await load(
      '.github/agents/writer.agent.md',
      "description: Writes.\nmodel: ['GPT-5 (copilot)', 'Claude Sonnet 4.5 (copilot)']",
    );
    expect(diagnostics).toEqual([]);
    expect(role?.model).toBe('GPT-5 (copilot)');
    // Copilot's display names hold spaces: not ids any provider knows, so no fallback is made of them.
    expect(role).not.toHaveProperty('fallbackModels');
    const ids = await load('.github/agents/writer.agent.md', 'description: Writes.\nmodel: [gpt-5, gpt-5-mini]');
    expect(ids.role?.fallbackModels).toEqual(['gpt-5-mini']);
  });

  it('a remote role ignores it, with a warning', async () => {
    const { diagnostics } = await load(
      '.agent-team/agents/remote.md',
      'description: Remote.\na2a_url: http://127.0.0.1:8083/\nfallbackModels: [gpt-5]',
    );
    expect(diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', message: expect.stringContaining("'fallbackModels' is ignored") }),
    ]);
  });
});
