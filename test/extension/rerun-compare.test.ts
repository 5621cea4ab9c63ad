/** Run Again and Compare…: the same prompt by another role or model, then both proposals side by side. */
import * as nodePath from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseProposalUri } from '../../src/extension/review/proposal-uri.js';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import type { Uri } from './support/fake-basics.js';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld({
  files: { 'a.ts': 'const a = 1;\n', 'b.ts': 'const b = 1;\n' },
  userSettings: { 'agentTeam.model': 'small-model' },
});

describe('Run Again and Compare…', () => {
  it('runs the prompt again on the model picked, then opens both proposals side by side', async () => {
    world.server.enqueue(
      toolCallTurn([{ name: 'Edit', input: { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' } }]),
      textTurn('First.'),
    );
    const first = (await world.extension.execute('agentTeam.delegate', 'Improve a', { role: 'refactorer' })) as string;
    await world.extension.host.taskManager.wait(first);
    world.server.enqueue(
      toolCallTurn([{ name: 'Edit', input: { file_path: 'b.ts', old_string: 'b = 1', new_string: 'b = 3' } }]),
      textTurn('Second.'),
    );
    fake.state.quickPickAnswers.push(({ items }) => {
      expect(items[0]).toMatchObject({ label: 'refactorer', description: 'the same role' });
      return items[0];
    });
    fake.state.inputBoxAnswers.push(() => 'large-model');
    const second = (await world.extension.execute('agentTeam.rerunAndCompare', first)) as string;
    const rerun = await world.extension.host.taskManager.wait(second);
    expect(rerun).toMatchObject({ role: 'refactorer', prompt: 'Improve a', model: 'openai/large-model', parentId: null });
    expect(world.server.requests[2]!.body).toMatchObject({ model: 'large-model' });
    const opened = () => fake.state.builtinCommands.find((entry) => entry.command === 'vscode.changes');
    if (!opened()) await new Promise<void>((resolve) => fake.state.tabsChanged.event(() => opened() && resolve()));
    const [title, resources] = opened()!.args as [string, Array<[Uri, Uri, Uri]>];
    expect(title).toBe(`Agent Team Compare: ${first} (openai/small-model) \u2194 ${second} (openai/large-model)`);
    const describe = (uri: Uri) => parseProposalUri(uri as never) ?? nodePath.relative(world.extension.root, uri.fsPath);
    expect(resources.map(([, left, right]) => [describe(left), describe(right)])).toEqual([
      [{ taskId: first, path: 'a.ts', side: 'proposed' }, 'a.ts'],
      ['b.ts', { taskId: second, path: 'b.ts', side: 'proposed' }],
    ]);
  });
});
