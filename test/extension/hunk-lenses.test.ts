/**
 * Review where the change is: Accept / Reject CodeLenses above each pending hunk of a proposal document,
 * and the proposed side as a document the user edits and saves before accepting it.
 */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { proposalUri } from '../../src/extension/review/proposal-uri.js';
import { type MockToolCall, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import type { CodeLens, Uri } from './support/fake-basics.js';
import type { FakeTextDocument } from './support/fake-documents.js';
import { fake, workspace } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const original = Array.from({ length: 20 }, (_, index) => `export const step${index + 1} = ${index + 1};`).join('\n') + '\n';
const renameFirst: MockToolCall = {
  name: 'Edit',
  input: { file_path: 'src/steps.ts', old_string: 'step1 = 1;', new_string: 'firstStep = 1;' },
};
const renameLast: MockToolCall = {
  name: 'Edit',
  input: { file_path: 'src/steps.ts', old_string: 'step20 = 20;', new_string: 'lastStep = 20;' },
};

const world = useExtensionWorld({ files: { 'src/steps.ts': original } });

/** A refactorer proposes the given edits; resolves with its task id once it has finished. */
async function propose(...toolCalls: MockToolCall[]): Promise<string> {
  world.server.enqueue(toolCallTurn(toolCalls), textTurn('Proposed.'));
  const taskId = (await world.extension.execute('agentTeam.delegate', 'Rename the steps', { role: 'refactorer' })) as string;
  await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
  return taskId;
}

const onDisk = () => readFileSync(nodePath.join(world.extension.root, 'src/steps.ts'), 'utf8');
const proposed = (taskId: string) => proposalUri({ taskId, path: 'src/steps.ts', side: 'proposed' }) as unknown as Uri;
const openProposal = (uri: Uri) => workspace.openTextDocument(uri) as Promise<FakeTextDocument>;

/** The document read again, as VS Code does when the provider says the proposal changed. */
function reopen(uri: Uri): Promise<FakeTextDocument> {
  const documents = fake.state.documents.documents;
  documents.splice(
    documents.findIndex((document) => document.uri.toString() === uri.toString()),
    1,
  );
  return openProposal(uri);
}

async function lensesOf(document: FakeTextDocument): Promise<CodeLens[]> {
  const [registered] = fake.state.codeLensProviders.filter((entry) => entry.selector.scheme === document.uri.scheme);
  return (await registered!.provider.provideCodeLenses(document)) as CodeLens[];
}

describe('hunk lenses', () => {
  it('puts an Accept and a Reject lens above each pending hunk, naming that hunk exactly', async () => {
    const taskId = await propose(renameFirst, renameLast);
    const host = await world.extension.ready();
    const [first, last] = host.changes.get(taskId)!.file('src/steps.ts')!.hunks;
    const lenses = await lensesOf(await openProposal(proposed(taskId)));
    expect(lenses.map((lens) => [lens.range.start.line, lens.command!.title, lens.command!.command, lens.command!.arguments])).toEqual([
      [0, 'Accept Change', 'agentTeam.acceptHunk', [{ taskId, path: 'src/steps.ts', hunkId: first!.id }]],
      [0, 'Reject Change', 'agentTeam.rejectHunk', [{ taskId, path: 'src/steps.ts', hunkId: first!.id }]],
      [19, 'Accept Change', 'agentTeam.acceptHunk', [{ taskId, path: 'src/steps.ts', hunkId: last!.id }]],
      [19, 'Reject Change', 'agentTeam.rejectHunk', [{ taskId, path: 'src/steps.ts', hunkId: last!.id }]],
    ]);
    // None on the base side, nor while the document holds unsaved edits (their lines would be wrong).
    expect(await lensesOf(await openProposal(proposalUri({ taskId, path: 'src/steps.ts', side: 'base' }) as unknown as Uri))).toEqual([]);
    const document = await openProposal(proposed(taskId));
    document.setText(`// typing\n${document.getText()}`);
    expect(await lensesOf(document)).toEqual([]);
  });

  it('running a lens\u2019s command accepts exactly its hunk; the lenses refresh to what is left', async () => {
    const taskId = await propose(renameFirst, renameLast);
    const document = await openProposal(proposed(taskId));
    let refreshed = 0;
    fake.state.codeLensProviders[0]!.provider.onDidChangeCodeLenses!(() => refreshed++);
    const acceptLast = (await lensesOf(document)).find(
      (lens) => lens.range.start.line === 19 && lens.command!.command === 'agentTeam.acceptHunk',
    )!;
    expect(await world.extension.execute(acceptLast.command!.command, ...acceptLast.command!.arguments!)).toBe('applied');
    expect(onDisk()).toBe(original.replace('step20 = 20', 'lastStep = 20'));
    expect(fake.state.quickPicks).toHaveLength(0);
    expect(refreshed).toBeGreaterThan(0);
    // The proposal is rebuilt on what was written: one hunk left, its lenses on line 1.
    const left = await lensesOf(await reopen(proposed(taskId)));
    expect(left.map((lens) => [lens.range.start.line, lens.command!.title])).toEqual([
      [0, 'Accept Change'],
      [0, 'Reject Change'],
    ]);
  });
});

describe('editable proposals', () => {
  it('saving the proposed side makes the user\u2019s text the proposal; Accept writes it to disk', async () => {
    const taskId = await propose(renameFirst);
    const host = await world.extension.ready();
    const document = await openProposal(proposed(taskId));
    const mine = document.getText().replace('firstStep = 1;', 'firstStep = 1; // renamed by hand');
    document.setText(mine);
    await document.save();
    const file = host.changes.get(taskId)!.file('src/steps.ts')!;
    expect(file).toMatchObject({ proposedContent: mine, editedByUser: true, added: 1, removed: 1 });
    expect(onDisk()).toBe(original);
    expect(await world.extension.execute('agentTeam.acceptFile', taskId, 'src/steps.ts')).toBe('applied');
    expect(onDisk()).toBe(mine);
  });

  it('refuses a write to the base side, and to a proposal already accepted, saying why', async () => {
    const taskId = await propose(renameFirst);
    const files = fake.state.documents.providers.get('agent-team-proposal')!;
    const bytes = new TextEncoder().encode('anything\n');
    const options = { create: false, overwrite: true };
    await expect(
      Promise.resolve().then(() =>
        files.writeFile(proposalUri({ taskId, path: 'src/steps.ts', side: 'base' }) as unknown as Uri, bytes, options),
      ),
    ).rejects.toMatchObject({
      code: 'NoPermissions',
      message: 'src/steps.ts as it was before the proposal is read-only: edit the proposed side.',
    });
    expect(await world.extension.execute('agentTeam.acceptFile', taskId, 'src/steps.ts')).toBe('applied');
    await expect(Promise.resolve().then(() => files.writeFile(proposed(taskId), bytes, options))).rejects.toThrow(
      /not kept: its proposed change was already accepted and written/,
    );
    expect(onDisk()).toBe(original.replace('step1 = 1', 'firstStep = 1'));
  });
});
