/** Request Changes… in the extension: the subagent revises its proposal, shown as a diff against the previous one. */
import * as nodePath from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { parseProposalUri } from '../../src/extension/review/proposal-uri.js';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import type { Uri } from './support/fake-basics.js';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld({ files: { 'src/app.ts': 'export const answer = 41;\n' } });

const content = (uri: Uri) =>
  Promise.resolve(fake.state.documents.providers.get('agent-team-proposal')!.readFile(uri)).then((bytes) =>
    new TextDecoder().decode(bytes),
  );

describe('Request Changes…', () => {
  it('sends the comment to the same subagent, which revises its proposal in place; the revision opens against the previous one', async () => {
    world.server.enqueue(
      toolCallTurn([{ name: 'Edit', input: { file_path: 'src/app.ts', old_string: '41', new_string: '42' } }]),
      textTurn('Set it to 42.'),
    );
    const taskId = (await world.extension.execute('agentTeam.delegate', 'Fix the answer', { role: 'refactorer' })) as string;
    await world.extension.host.taskManager.wait(taskId);

    world.server.enqueue(
      toolCallTurn([{ name: 'Edit', input: { file_path: 'src/app.ts', old_string: '42;', new_string: '42; // the answer' } }]),
      textTurn('Added the comment.'),
    );
    fake.state.inputBoxAnswers.push((options) => {
      expect(options.title).toBe(`Request Changes: refactorer (${taskId})`);
      return 'Add a comment saying what it is.';
    });
    const revisionId = (await world.extension.execute('agentTeam.requestChanges', taskId)) as string;
    const revision = await world.extension.host.taskManager.wait(revisionId);
    expect(revision).toMatchObject({ parentId: taskId, role: 'refactorer', status: 'completed' });
    // The agent went on with its context: its first exchange, then the comment.
    const body = JSON.stringify(world.server.requests[2]!.body);
    expect(body).toContain('Fix the answer');
    expect(body).toContain('Set it to 42.');
    expect(world.server.requests[2]!.lastMessageText).toContain('Add a comment saying what it is.');

    // The revision's diff opens once its task has ended: a new tab.
    const opened = () => fake.state.builtinCommands.some((entry) => entry.command === 'vscode.changes');
    if (!opened()) await new Promise<void>((resolve) => fake.state.tabsChanged.event(() => opened() && resolve()));
    const [title, resources] = fake.state.builtinCommands.find((entry) => entry.command === 'vscode.changes')!.args as [
      string,
      Array<[Uri, Uri, Uri]>,
    ];
    expect(title).toBe(`Agent Team Revision: refactorer (${taskId})`);
    const [, previous, proposed] = resources[0]!;
    expect(parseProposalUri(previous as never)).toEqual({ taskId, path: 'src/app.ts', side: 'previous' });
    expect(await content(previous)).toBe('export const answer = 42;\n');
    expect(await content(proposed)).toBe('export const answer = 42; // the answer\n');
    // One change set, from the file on disk to the revision: accepting writes the whole revised change.
    expect(await world.extension.execute('agentTeam.acceptFile', taskId, 'src/app.ts')).toBe('applied');
    expect(readFileSync(nodePath.join(world.extension.root, 'src/app.ts'), 'utf8')).toBe('export const answer = 42; // the answer\n');
  });

  it('with nothing waiting for review, says there is nothing to send back', async () => {
    expect(await world.extension.execute('agentTeam.requestChanges')).toBeUndefined();
    expect(fake.state.messages.at(-1)!.message).toBe('No proposed changes are waiting for review, so there is nothing to send back.');
  });
});
