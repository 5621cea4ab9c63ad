/** Export Trace…: a run's trace saved as Markdown or JSON where the user chooses, keys redacted. */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { Uri } from './support/fake-basics.js';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const key = 'sk-openai-abcdefghijklmnopqrstuvwxyz0123';
const world = useExtensionWorld({ files: { 'a.ts': 'const a = 1;\n' }, environment: { OPENAI_API_KEY: key } });

describe('Export Trace…', () => {
  it('saves the run as Markdown (the default) or JSON, with the tree, steps, diffs, and no key', async () => {
    world.server.enqueue(
      toolCallTurn([{ name: 'Edit', input: { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' } }]),
      textTurn('Changed.'),
    );
    const rootId = (await world.extension.execute('agentTeam.delegate', `Change a (the key ${key} must not leak)`, {
      role: 'refactorer',
    })) as string;
    await world.extension.host.taskManager.wait(rootId);
    const markdownFile = nodePath.join(world.extension.root, 'trace.md');
    fake.state.saveDialogAnswers.push((options) => {
      expect((options.defaultUri as Uri).fsPath).toBe(nodePath.join(world.extension.root, `agent-team-${rootId}.md`));
      return Uri.file(markdownFile);
    });
    await world.extension.execute('agentTeam.exportTrace', rootId);
    const markdown = readFileSync(markdownFile, 'utf8');
    expect(markdown).toMatch(new RegExp(`^# Agent Team run ${rootId}: Change a`));
    expect(markdown).toContain('- `Edit`');
    expect(markdown).toContain('+const a = 2;');
    expect(markdown).not.toContain(key);
    const jsonFile = nodePath.join(world.extension.root, 'trace.json');
    fake.state.saveDialogAnswers.push(() => Uri.file(jsonFile));
    await world.extension.execute('agentTeam.exportTrace', rootId);
    expect(JSON.parse(readFileSync(jsonFile, 'utf8'))).toMatchObject({
      version: 1,
      run: { id: rootId, role: 'refactorer', status: 'completed', changes: [{ path: 'a.ts' }] },
    });
  });
});
