/**
 * Undo Accepted Changes in the extension (fake VS Code, real engine, real run log in the workspace
 * storage): accepting a file keeps its restore point; the command puts the file back byte for byte and
 * deletes the file the accept created; again, it puts the accepted content back; a file edited since is
 * refused by name, nothing is written, and Undo Anyway writes over it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import type { HostMessage } from '../../src/shared/protocol.js';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const original = 'one\r\ntwo\r\nthree\r\n';
let server: MockProviderServer;
let extension: ActivatedExtension;

beforeEach(async () => {
  server = await startMockProviderServer();
  extension = activateExtension({
    files: { 'src/app.ts': original },
    userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
  });
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

const onDisk = (path: string) => readFileSync(nodePath.join(extension.root, path), 'utf8');

/** A refactorer's edit of src/app.ts and new file src/new.ts, both accepted. */
async function acceptBoth(): Promise<string> {
  server.enqueue(
    toolCallTurn([
      { name: 'Edit', input: { file_path: 'src/app.ts', old_string: 'two', new_string: 'TWO' } },
      { name: 'Write', input: { file_path: 'src/new.ts', content: 'export {};\n' } },
    ]),
    textTurn('Proposed.'),
  );
  const taskId = (await extension.execute('agentTeam.delegate', 'Make the edits', { role: 'refactorer' })) as string;
  await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
  expect(await extension.execute('agentTeam.acceptFile', taskId, 'src/app.ts')).toBe('applied');
  expect(await extension.execute('agentTeam.acceptFile', taskId, 'src/new.ts')).toBe('applied');
  expect(onDisk('src/app.ts')).toBe(original.replace('two', 'TWO'));
  return taskId;
}

describe('Undo Accepted Changes', () => {
  it('puts the accepted files back byte for byte, and again puts the accepted content back', async () => {
    const runId = await acceptBoth();
    expect(await extension.execute('agentTeam.undoAccepted', runId)).toMatchObject({ status: 'done', direction: 'undo' });
    expect(onDisk('src/app.ts')).toBe(original);
    expect(existsSync(nodePath.join(extension.root, 'src/new.ts'))).toBe(false);
    expect(fake.state.messages.at(-1)).toMatchObject({
      message: `Undid the accepted changes of run ${runId}: src/app.ts, src/new.ts.`,
      items: ['Undo the Undo'],
    });
    expect(await extension.execute('agentTeam.undoAccepted', runId)).toMatchObject({ status: 'done', direction: 'redo' });
    expect(onDisk('src/app.ts')).toBe(original.replace('two', 'TWO'));
    expect(onDisk('src/new.ts')).toBe('export {};\n');
    // One file only.
    expect(await extension.execute('agentTeam.undoAccepted', runId, 'src/new.ts')).toMatchObject({
      status: 'done',
      files: [{ path: 'src/new.ts', action: 'deleted' }],
    });
    expect(onDisk('src/app.ts')).toBe(original.replace('two', 'TWO'));
  });

  it('lists the undone files as undone in the sidebar, and as accepted again once the undo is undone', async () => {
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
    const runId = await acceptBoth();
    const lastSummary = async () => {
      await flushMicrotasks();
      await extension.clock.advance(50);
      return view
        .ofType<HostMessage & { type: 'change-summary' }>('change-summary')
        .flatMap((message) => message.summaries)
        .at(-1);
    };
    expect(await lastSummary()).toMatchObject({
      taskId: runId,
      files: [
        { path: 'src/app.ts', status: 'accepted' },
        { path: 'src/new.ts', status: 'accepted' },
      ],
    });
    // The file's Undo button in the detail view.
    view.send({ type: 'undo-file', taskId: runId, path: 'src/app.ts' });
    await fake.waitForMessage((message) => message.message.startsWith('Undid the accepted changes'));
    expect(onDisk('src/app.ts')).toBe(original);
    expect(await lastSummary()).toMatchObject({
      taskId: runId,
      files: [
        { path: 'src/app.ts', status: 'undone' },
        { path: 'src/new.ts', status: 'accepted' },
      ],
    });
    await extension.execute('agentTeam.undoAccepted', runId, 'src/app.ts');
    expect(await lastSummary()).toMatchObject({
      taskId: runId,
      files: [
        { path: 'src/app.ts', status: 'accepted' },
        { path: 'src/new.ts', status: 'accepted' },
      ],
    });
  });

  it('after a window reload, offers the run in the palette and undoes the undo from its restore points', async () => {
    const runId = await acceptBoth();
    await extension.execute('agentTeam.undoAccepted', runId, 'src/app.ts');
    await extension.cleanup({ keepFiles: true });
    extension = activateExtension({
      reloadOf: extension,
      userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
    });
    const offered: string[][] = [];
    fake.state.quickPickAnswers.push(({ items }) => {
      offered.push(items.map((item) => item.label));
      return items[0];
    });
    fake.state.quickPickAnswers.push(({ items }) => items.find((item) => item.label === 'src/app.ts'));
    expect(await extension.execute('agentTeam.undoAccepted')).toMatchObject({
      status: 'done',
      direction: 'redo',
      files: [{ path: 'src/app.ts' }],
    });
    expect(offered[0]).toEqual([expect.stringContaining('refactorer: Make the edits')]);
    expect(onDisk('src/app.ts')).toBe(original.replace('two', 'TWO'));
  });

  it('refuses a file edited since, naming it, and writes nothing; Undo Anyway writes over it', async () => {
    const runId = await acceptBoth();
    writeFileSync(nodePath.join(extension.root, 'src/app.ts'), 'edited by hand\n');
    fake.state.messageAnswers.push(() => undefined);
    expect(await extension.execute('agentTeam.undoAccepted', runId)).toMatchObject({
      status: 'refused',
      refused: [{ path: 'src/app.ts', forceable: true }],
    });
    expect(fake.state.messages.at(-1)).toMatchObject({
      message: 'Nothing was undone: src/app.ts changed since the accept.',
      modal: true,
      items: ['Undo Anyway'],
    });
    expect(onDisk('src/app.ts')).toBe('edited by hand\n');
    expect(onDisk('src/new.ts')).toBe('export {};\n');
    fake.state.messageAnswers.push(() => 'Undo Anyway');
    expect(await extension.execute('agentTeam.undoAccepted', runId)).toMatchObject({
      status: 'done',
      files: [{ path: 'src/app.ts', forced: true }, { path: 'src/new.ts' }],
    });
    expect(onDisk('src/app.ts')).toBe(original);
  });
});
