import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseProposalUri, proposalUri } from '../../src/extension/review/proposal-uri.js';
import { type HostMessage } from '../../src/shared/protocol.js';
import {
  type MockProviderServer,
  type MockToolCall,
  httpError,
  startMockProviderServer,
  textTurn,
  toolCallTurn,
} from '../support/mock-provider/index.js';
import { flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { Position, Selection, TabInputTextDiff, Uri } from './support/fake-basics.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const original = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', ''].join('\n');

let server: MockProviderServer;
let extension: ActivatedExtension;

beforeEach(async () => {
  server = await startMockProviderServer();
  extension = activateExtension({
    files: { 'src/app.ts': original, '.vscode/settings.json': '{}\n' },
    userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
  });
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

/** A refactorer proposes the given edits; resolves with its task id once it has finished. */
async function propose(...toolCalls: MockToolCall[]): Promise<string> {
  server.enqueue(toolCallTurn(toolCalls), textTurn('Proposed.'));
  const taskId = (await extension.execute('agentTeam.delegate', 'Make the edits', { role: 'refactorer' })) as string;
  await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
  return taskId;
}

const onDisk = (path: string) => readFileSync(nodePath.join(extension.root, path), 'utf8');
const proposedContent = (uri: Uri) =>
  Promise.resolve(fake.state.documents.providers.get('agent-team-proposal')!.readFile(uri)).then((bytes) =>
    new TextDecoder().decode(bytes),
  );

describe('review', () => {
  it('opens the change set in the multi-file diff editor: each file against its proposal', async () => {
    const taskId = await propose(
      { name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } },
      { name: 'Write', input: { file_path: 'src/new.ts', content: 'export {};\n' } },
    );
    await extension.execute('agentTeam.reviewChanges', taskId);
    const changes = fake.state.builtinCommands.find((entry) => entry.command === 'vscode.changes');
    const [title, resources] = changes!.args as [string, Array<[Uri, Uri, Uri]>];
    expect(title).toBe(`Agent Team Review: refactorer (${taskId})`);
    expect(resources.map(([resource, left, right]) => [resource.fsPath, left.scheme, parseProposalUri(right as never)])).toEqual([
      [nodePath.join(extension.root, 'src/app.ts'), 'file', { taskId, path: 'src/app.ts', side: 'proposed' }],
      [nodePath.join(extension.root, 'src/new.ts'), 'agent-team-proposal', { taskId, path: 'src/new.ts', side: 'proposed' }],
    ]);
    expect(await proposedContent(resources[0]![2])).toBe(original.replace('two', 'TWO'));
    expect(await proposedContent(resources[1]![1])).toBe('');
    expect(onDisk('src/app.ts')).toBe(original);
    expect(fake.state.contextKeys.get('agentTeam.changesReviewActive')).toBe(true);
  });

  it('a decision in the multi-file diff editor opens it again with what is left, and closes it when nothing is', async () => {
    const taskId = await propose(
      { name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } },
      { name: 'Write', input: { file_path: 'src/new.ts', content: 'export {};\n' } },
    );
    await extension.execute('agentTeam.reviewChanges', taskId);
    // Inside the multi-file diff editor the focused file's editor is the active one.
    fake.state.activeTextEditor = {
      document: { uri: proposalUri({ taskId, path: 'src/app.ts', side: 'proposed' }) as never },
      selection: new Selection(new Position(0, 0), new Position(0, 0)),
    };
    expect(await extension.execute('agentTeam.acceptFile')).toBe('applied');
    expect(onDisk('src/app.ts')).toBe(original.replace('two', 'TWO'));
    const reopened = fake.state.builtinCommands.filter((entry) => entry.command === 'vscode.changes').at(-1)!.args as [
      string,
      Array<[Uri, Uri, Uri]>,
    ];
    expect(reopened[1].map(([resource]) => nodePath.relative(extension.root, resource.fsPath))).toEqual(['src/new.ts']);
    expect(fake.state.tabs.map((tab) => tab.label)).toEqual([`Agent Team Review: refactorer (${taskId})`]);
    fake.state.activeTextEditor = undefined;
    // Reject All from the editor title: the review in front.
    expect(await extension.execute('agentTeam.rejectAllChanges')).toBe(1);
    expect(() => readFileSync(nodePath.join(extension.root, 'src/new.ts'))).toThrow();
    expect(fake.state.tabs).toEqual([]);
    expect(fake.state.contextKeys.get('agentTeam.changesReviewActive')).toBe(false);
  });

  it('where VS Code has no multi-file diff editor, lists the files with +n −m and opens a diff of the one picked', async () => {
    fake.state.multiDiffUnavailable = true;
    const taskId = await propose({ name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } });
    fake.state.quickPickAnswers.push(({ items }) => {
      expect(items.map((item) => [item.label, (item as { description?: string }).description])).toEqual([['src/app.ts', '+1 \u22121']]);
      return items[0];
    });
    await extension.execute('agentTeam.reviewChanges', taskId);
    const diff = fake.state.builtinCommands.find((entry) => entry.command === 'vscode.diff');
    const [left, right, title] = diff!.args as [Uri, Uri, string];
    expect(left.scheme).toBe('file');
    expect(left.fsPath).toBe(nodePath.join(extension.root, 'src/app.ts'));
    expect(parseProposalUri(right as never)).toEqual({ taskId, path: 'src/app.ts', side: 'proposed' });
    expect(title).toBe(`src/app.ts \u2194 proposed by refactorer (${taskId})`);
    expect(onDisk('src/app.ts')).toBe(original);
  });

  it('a file clicked in the sidebar opens its diff; a path the task did not propose only says so', async () => {
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
    const taskId = await propose({ name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } });
    const opened = new Promise<void>((resolve) => fake.state.tabsChanged.event(() => resolve()));
    view.send({ type: 'open-diff', taskId, path: 'src/app.ts' });
    await opened;
    const diff = fake.state.builtinCommands.find((entry) => entry.command === 'vscode.diff');
    expect(parseProposalUri(diff!.args[1] as never)).toEqual({ taskId, path: 'src/app.ts', side: 'proposed' });
    const said = fake.waitForMessage((message) => message.message.includes('../etc/passwd'));
    view.send({ type: 'open-diff', taskId, path: '../etc/passwd' });
    await said;
    expect(fake.state.messages.at(-1)!.message).toBe(`Task ${taskId} has no proposed change to ../etc/passwd.`);
    expect(fake.state.builtinCommands.filter((entry) => entry.command === 'vscode.diff')).toHaveLength(1);
  });

  it('decides the change under the cursor without asking, then moves the cursor to the next one', async () => {
    const taskId = await propose(
      { name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'one', new_string: 'ONE' } },
      { name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'twelve', new_string: 'TWELVE' } },
    );
    const revealed: unknown[] = [];
    const editor = {
      document: { uri: proposalUri({ taskId, path: 'src/app.ts', side: 'proposed' }) as never },
      // Line 12 (0-based 11): "TWELVE", in the second hunk.
      selection: new Selection(new Position(11, 2), new Position(11, 2)),
      revealRange: (range: unknown) => revealed.push(range),
    };
    fake.state.activeTextEditor = editor;
    expect(await extension.execute('agentTeam.rejectHunk')).toBe('rejected');
    expect(fake.state.quickPicks).toHaveLength(0);
    expect(await proposedContent(proposalUri({ taskId, path: 'src/app.ts', side: 'proposed' }))).toBe(original.replace('one', 'ONE'));
    // The cursor is on the first hunk's changed line now ("ONE", line 1).
    expect(editor.selection.active.line).toBe(0);
    expect(revealed).toHaveLength(1);
    expect(await extension.execute('agentTeam.acceptHunk')).toBe('applied');
    expect(onDisk('src/app.ts')).toBe(original.replace('one', 'ONE'));
  });

  it('accepts a file through a WorkspaceEdit of the whole document, saves it, and closes its diff', async () => {
    const taskId = await propose({ name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } });
    const right = proposalUri({ taskId, path: 'src/app.ts', side: 'proposed' });
    fake.state.tabs.push({ input: new TabInputTextDiff(right as never, right as never), label: 'diff' });
    // The editor title button passes the proposal URI.
    const outcome = await extension.execute('agentTeam.acceptFile', right);
    expect(outcome).toBe('applied');
    expect(onDisk('src/app.ts')).toBe(original.replace('two', 'TWO'));
    const edits = fake.state.documents.appliedEdits;
    expect(edits).toHaveLength(1);
    expect(edits[0].operations).toEqual([expect.objectContaining({ kind: 'replace', text: original.replace('two', 'TWO') })]);
    expect(fake.state.documents.documents[0].saves).toBe(1);
    expect(fake.state.tabs).toEqual([]);
  });

  it('merges the accepted change onto a file the user changed meanwhile on other lines (the engine rule of --apply)', async () => {
    const taskId = await propose({ name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } });
    const document = fake.state.documents.open(Uri.file(nodePath.join(extension.root, 'src/app.ts')));
    const edited = original.replace('twelve', 'twelve (edited by the user)');
    document.setText(edited);
    const outcome = await extension.execute('agentTeam.acceptFile', taskId, 'src/app.ts');
    expect(outcome).toBe('applied');
    expect(document.getText()).toBe(edited.replace('two', 'TWO'));
  });

  it("Accept of a second task's change to a file after the first's writes both (merged, as --apply does)", async () => {
    const first = await propose({ name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } });
    // Its own finish message: the first task's is already shown.
    fake.state.messages.length = 0;
    const second = await propose({ name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'eleven', new_string: 'ELEVEN' } });
    expect(second).not.toBe(first);
    expect(await extension.execute('agentTeam.acceptFile', first, 'src/app.ts')).toBe('applied');
    expect(await extension.execute('agentTeam.acceptFile', second, 'src/app.ts')).toBe('applied');
    expect(onDisk('src/app.ts')).toBe(original.replace('two', 'TWO').replace('eleven', 'ELEVEN'));
  });

  it('leaves a file the user changed on the same lines untouched, reports the conflict and offers the file with both sides marked', async () => {
    const taskId = await propose({ name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } });
    const document = fake.state.documents.open(Uri.file(nodePath.join(extension.root, 'src/app.ts')));
    // "three" is a context line of the proposal's hunk: exact, so a conflict.
    const edited = original.replace('three', 'three (edited by the user)');
    document.setText(edited);
    // The user opens the marked file from the warning.
    fake.state.messageAnswers.push((shown) => (shown.items.includes('Review Rebased Change') ? 'Review Rebased Change' : undefined));
    const outcome = await extension.execute('agentTeam.acceptFile', taskId, 'src/app.ts');
    expect(outcome).toBe('conflict');
    expect(onDisk('src/app.ts')).toBe(original);
    expect(document.getText()).toBe(edited);
    const warning = fake.state.messages.find((message) => message.kind === 'warning');
    expect(warning?.message).toMatch(
      new RegExp(
        `changed on disk since the task read it \\(on disk\\) and lines 1–5 were changed by both on disk and task ${taskId}; nothing was written`,
      ),
    );
    expect(warning?.items).toEqual(['Review Rebased Change']);

    // The diff editor's proposed side holds both sides between markers, on top of the user's file.
    const right = proposalUri({ taskId, path: 'src/app.ts', side: 'proposed' });
    await vi.waitFor(async () => expect(await proposedContent(right)).toContain('<<<<<<< on disk\none\ntwo\nthree (edited by the user)\n'));
    const marked = await proposedContent(right);
    expect(marked).toContain(`=======\none\nTWO\nthree\nfour\nfive\n>>>>>>> task ${taskId}\n`);
    // Accepting it with the markers still in asks first; declined, nothing is written.
    expect(await extension.execute('agentTeam.acceptFile', taskId, 'src/app.ts')).toBe('cancelled');
    expect(fake.state.messages.at(-1)).toMatchObject({
      modal: true,
      message: 'src/app.ts still has conflict markers. Apply it with them?',
    });
    expect(document.getText()).toBe(edited);

    // The user keeps both changes in the proposed side, saves it, and accepts: written as they resolved it.
    const resolved = original.replace('two', 'TWO').replace('three', 'three (edited by the user)');
    fake.state.documents.providers
      .get('agent-team-proposal')!
      .writeFile(right, new TextEncoder().encode(resolved), { create: false, overwrite: true });
    expect(await extension.execute('agentTeam.acceptFile', taskId, 'src/app.ts')).toBe('applied');
    expect(document.getText()).toBe(resolved);
  });

  it("Accept All leaves a failed task's proposals and says why; the file can still be accepted on its own", async () => {
    server.enqueue(
      toolCallTurn([{ name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } }]),
      httpError(400, { message: 'the model refused' }),
    );
    const taskId = (await extension.execute('agentTeam.delegate', 'Make the edits', { role: 'refactorer' })) as string;
    await fake.waitForMessage((message) => message.message.includes('failed'));
    expect(await extension.execute('agentTeam.acceptAllChanges', taskId)).toBe(0);
    expect(onDisk('src/app.ts')).toBe(original);
    const warning = await fake.waitForMessage((message) => message.message.startsWith('Not accepted: src/app.ts'));
    expect(warning.message).toContain(`refactorer ${taskId} failed`);
    expect(await extension.execute('agentTeam.acceptFile', taskId, 'src/app.ts')).toBe('applied');
    expect(onDisk('src/app.ts')).toContain('TWO');
  });

  it('rejects a file: nothing is written and the sidebar shows it rejected', async () => {
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
    const taskId = await propose({ name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } });
    view.send({ type: 'reject-file', taskId, path: 'src/app.ts' });
    await flushMicrotasks();
    await extension.clock.advance(50);
    expect(onDisk('src/app.ts')).toBe(original);
    const summaries = view.ofType<HostMessage & { type: 'change-summary' }>('change-summary').flatMap((message) => message.summaries);
    expect(summaries.at(-1)).toMatchObject({ taskId, pending: 0, files: [{ path: 'src/app.ts', status: 'rejected' }] });
  });

  it('accepts one hunk at a time: the rest stays up for review, rebuilt on what was written', async () => {
    const taskId = await propose(
      { name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'one', new_string: 'ONE' } },
      { name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'twelve', new_string: 'TWELVE' } },
    );
    fake.state.quickPickAnswers.push(({ items }) => {
      expect(items.map((item) => item.label)).toEqual(['Lines 1\u20134', 'Lines 9\u201312']);
      return items[1];
    });
    expect(await extension.execute('agentTeam.acceptHunk', taskId, 'src/app.ts')).toBe('applied');
    expect(onDisk('src/app.ts')).toBe(original.replace('twelve', 'TWELVE'));
    const right = proposalUri({ taskId, path: 'src/app.ts', side: 'proposed' });
    expect(await proposedContent(right)).toBe(original.replace('twelve', 'TWELVE').replace('one', 'ONE'));
    // The one hunk left needs no pick; rejecting it leaves the file as it is.
    expect(await extension.execute('agentTeam.rejectHunk', taskId, 'src/app.ts')).toBe('rejected');
    expect(onDisk('src/app.ts')).toBe(original.replace('twelve', 'TWELVE'));
  });

  it('asks before writing sensitive configuration, and writes nothing when the user declines', async () => {
    const taskId = await propose({
      name: 'Write',
      input: { file_path: '.vscode/settings.json', content: '{ "task.allowAutomaticTasks": "on" }\n' },
    });
    fake.state.messageAnswers.push(() => undefined);
    expect(await extension.execute('agentTeam.acceptFile', taskId, '.vscode/settings.json')).toBe('cancelled');
    const modal = fake.state.messages.find((message) => message.modal);
    expect(modal?.message).toBe('Apply the proposed change to .vscode/settings.json?');
    expect(onDisk('.vscode/settings.json')).toBe('{}\n');
    fake.state.messageAnswers.push((message) => message.items[0]);
    expect(await extension.execute('agentTeam.acceptFile', taskId, '.vscode/settings.json')).toBe('applied');
    expect(onDisk('.vscode/settings.json')).toBe('{ "task.allowAutomaticTasks": "on" }\n');
  });

  it('creates a proposed new file on accept', async () => {
    const taskId = await propose({ name: 'Write', input: { file_path: 'src/new/helper.ts', content: 'export const answer = 42;\n' } });
    expect(await extension.execute('agentTeam.acceptFile', { taskId, path: 'src/new/helper.ts' })).toBe('applied');
    expect(onDisk('src/new/helper.ts')).toBe('export const answer = 42;\n');
  });
});
