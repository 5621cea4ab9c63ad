/**
 * Apply to Branch… on a run whose log no longer verifies as the user's (edited in the workspace storage
 * after it was written): a modal asks first; without "Apply Anyway" no branch is made, with it the
 * branch is made as for any run (the extension's `--force`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { git, type GitWorld, initRepository, makeGitWorld } from '../support/git-repository.js';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld({ files: { 'a.ts': 'const a = 1;\n' } });
let gitWorld: GitWorld;
beforeEach(async () => {
  gitWorld = await makeGitWorld();
  initRepository(world.extension.root, gitWorld);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await gitWorld.dispose();
});

describe('Apply to Branch… on a foreign run', () => {
  it('asks in a modal, makes nothing unless told Apply Anyway, and then makes the branch', async () => {
    world.server.enqueue(
      toolCallTurn([{ name: 'Edit', input: { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' } }]),
      textTurn('Changed a.'),
    );
    const runId = (await world.extension.execute('agentTeam.delegate', 'Change a', { role: 'refactorer' })) as string;
    await world.extension.host.taskManager.wait(runId);
    const runFile = nodePath.join(world.extension.base, 'storage', 'runs', `${runId}.jsonl`);
    writeFileSync(runFile, readFileSync(runFile, 'utf8').replace('Change a', 'Change a for me'));
    vi.stubEnv('PATH', gitWorld.bin);
    vi.stubEnv('HOME', gitWorld.home);
    vi.stubEnv('GIT_CONFIG_NOSYSTEM', '1');

    fake.state.messageAnswers.push(() => undefined);
    await world.extension.execute('agentTeam.applyToBranch', runId);
    expect(fake.state.messages.filter((message) => message.modal)).toEqual([
      expect.objectContaining({ kind: 'warning', message: expect.stringContaining(`Run ${runId} is foreign`), items: ['Apply Anyway'] }),
    ]);
    expect(git(world.extension.root, ['branch', '--list', 'forced'], gitWorld).trim()).toBe('');

    fake.state.messageAnswers.push(() => 'Apply Anyway');
    fake.state.inputBoxAnswers.push(() => 'forced');
    await world.extension.execute('agentTeam.applyToBranch', runId);
    expect(git(world.extension.root, ['show', 'forced:a.ts'], gitWorld)).toBe('const a = 2;\n');
  });
});
